package dev.weft.micronaut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.httpserver.testing.Await;
import dev.weft.micronaut.app.Gate;
import dev.weft.micronaut.server.WeftEmbeddedServer;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.env.Environment;
import io.micronaut.runtime.server.EmbeddedServer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * With {@code micronaut.lifecycle.graceful-shutdown.enabled}, stopping the application lets a request in flight
 * finish with its full response while no new connection is accepted, and then the server is gone.
 */
class WeftShutsDownGracefullyTest {

    @Test
    void aRequestInFlightFinishesWhileTheApplicationStops() throws Exception {
        ApplicationContext context = ApplicationContext.run(EmbeddedServer.class,
                Map.of("micronaut.lifecycle.graceful-shutdown.enabled", true,
                        "micronaut.lifecycle.graceful-shutdown.grace-period", "30s"),
                Environment.TEST).getApplicationContext();
        EmbeddedServer server = context.getBean(EmbeddedServer.class);
        assertThat(server).isInstanceOf(WeftEmbeddedServer.class);
        int port = server.getPort();
        URI uri = server.getURI();
        Gate gate = context.getBean(Gate.class);
        gate.reset();
        try (HttpClient client = HttpClient.newHttpClient()) {
            CompletableFuture<HttpResponse<String>> inFlight = client.sendAsync(
                    HttpRequest.newBuilder(uri.resolve("/sample/slow")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(gate.awaitEntered()).isTrue();

            CompletableFuture<Void> stopping = CompletableFuture.runAsync(context::close);
            Await.until("the stopping server to refuse new connections", () -> refused(port));
            assertThat(stopping).isNotDone();
            assertThat(inFlight).isNotDone();

            gate.release();
            HttpResponse<String> response = inFlight.get(30, TimeUnit.SECONDS);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("finished");
            stopping.get(30, TimeUnit.SECONDS);
        } finally {
            gate.release();
        }
        assertThat(server.isRunning()).isFalse();
        assertThat(context.isRunning()).isFalse();
        assertThatThrownBy(() -> new Socket("localhost", port).close()).isInstanceOf(ConnectException.class);
    }

    private static boolean refused(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("localhost", port), 1000);
            return false;
        } catch (IOException ex) {
            return true;
        }
    }
}
