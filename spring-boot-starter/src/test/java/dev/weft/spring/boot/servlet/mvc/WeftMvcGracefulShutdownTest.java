package dev.weft.spring.boot.servlet.mvc;

import dev.weft.spring.boot.servlet.WeftServletWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Closing an MVC application on Weft with {@code server.shutdown=graceful}: Spring Boot's graceful-shutdown phase
 * refuses new connections and lets the request in flight finish with its whole response before the server
 * stops.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftMvcGracefulShutdownTest {

    private ConfigurableApplicationContext context;

    @AfterEach
    void close() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void anInFlightRequestFinishesWhileNewConnectionsAreRefused() throws Exception {
        context = new SpringApplicationBuilder(MvcTestApplication.class)
                .properties("server.port=0", "server.shutdown=graceful", "spring.main.banner-mode=off")
                .run();
        ServletWebServerApplicationContext web = (ServletWebServerApplicationContext) context;
        assertThat(web.getWebServer()).isInstanceOf(WeftServletWebServer.class);
        int port = web.getWebServer().getPort();
        MvcTestApplication.Gate gate = context.getBean(MvcTestApplication.Gate.class);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        CompletableFuture<HttpResponse<String>> inFlight = client.sendAsync(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/slow")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(gate.entered.await(20, TimeUnit.SECONDS)).as("request reached the controller").isTrue();

        ConfigurableApplicationContext closing = context;
        CompletableFuture<Void> closed = CompletableFuture.runAsync(closing::close);

        awaitRefused(port);
        assertThat(inFlight).isNotDone();
        assertThat(closed).isNotDone();
        gate.open();
        HttpResponse<String> response = inFlight.get(30, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("slow done");
        assertThat(response.headers().firstValue("Connection")).hasValue("close");
        closed.get(30, TimeUnit.SECONDS);
        assertThat(web.getWebServer().getPort()).isEqualTo(-1);
    }

    private static void awaitRefused(int port) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.getPort();
            } catch (ConnectException refused) {
                return;
            } catch (IOException other) {
                // not yet decided: try again
            }
            assertThat(System.nanoTime() - deadline).as("new connections refused in time").isNegative();
            Thread.sleep(5);
        }
    }
}
