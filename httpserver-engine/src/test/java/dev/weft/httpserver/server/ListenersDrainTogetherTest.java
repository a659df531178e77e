package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.Listener;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.ConnectProbe;
import dev.weft.httpserver.testing.TestCertificates;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import static dev.weft.httpserver.testing.TestServer.respond;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A graceful stop closes every listener at once and lets the exchanges in flight on each finish. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ListenersDrainTogetherTest {

    private static final InetSocketAddress ANY_PORT = new InetSocketAddress("127.0.0.1", 0);

    private final CountDownLatch release = new CountDownLatch(1);
    private HttpServer server;

    @AfterEach
    void stop() {
        release.countDown();
        if (server != null) {
            server.stop(0);
        }
    }

    /** {@code /slow} answers {@code done <local port>} once released; the latch counts the exchanges waiting. */
    private CountDownLatch slowContext(int exchanges) {
        CountDownLatch inFlight = new CountDownLatch(exchanges);
        server.createContext("/slow", ex -> {
            inFlight.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            respond(ex, 200, "done " + ex.getLocalAddress().getPort());
        });
        return inFlight;
    }

    @Test
    void aGracefulStopDrainsSlowExchangesOnBothListenersAndRefusesNewConnectionsOnBoth() throws Exception {
        server = Weft.createServer(ServerConfig.defaults(), List.of(Listener.http(ANY_PORT),
                Listener.https(ANY_PORT, new HttpsConfigurator(TestCertificates.get().serverContext()))));
        CountDownLatch inFlight = slowContext(2);
        server.start();
        int http = Weft.stats(server).listeners().get(0).address().getPort();
        int https = Weft.stats(server).listeners().get(1).address().getPort();
        HttpClient client = HttpClient.newBuilder().sslContext(TestCertificates.get().clientContext())
                .version(HttpClient.Version.HTTP_1_1).build();
        CompletableFuture<HttpResponse<String>> onHttp = client.sendAsync(HttpRequest.newBuilder(
                URI.create("http://localhost:" + http + "/slow")).build(), HttpResponse.BodyHandlers.ofString());
        CompletableFuture<HttpResponse<String>> onHttps = client.sendAsync(HttpRequest.newBuilder(
                URI.create("https://localhost:" + https + "/slow")).build(), HttpResponse.BodyHandlers.ofString());
        Await.latch("a slow exchange on each listener", inFlight);

        CompletableFuture<Boolean> drained = Weft.shutdownGracefully(server);
        Await.until("both listeners refuse connections",
                () -> ConnectProbe.refused(http) && ConnectProbe.refused(https));
        assertTrue(!drained.isDone(), "the drain waits for both exchanges");
        release.countDown();

        assertEquals("done " + http, onHttp.get().body());
        assertEquals("done " + https, onHttps.get().body());
        assertEquals(Boolean.TRUE, drained.get());
        assertEquals(0, Weft.stats(server).connectionsActive());
        Weft.stats(server).listeners().forEach(l -> assertEquals(0, l.connectionsActive(), l.name()));
    }

    @Test
    void stopWithADelayClosesBothListenersAndWaitsForBothExchanges() throws Exception {
        server = Weft.createServer(ServerConfig.defaults(), List.of(Listener.http(ANY_PORT), Listener.http(ANY_PORT)));
        CountDownLatch inFlight = slowContext(2);
        server.start();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        List<CompletableFuture<HttpResponse<String>>> responses = Weft.stats(server).listeners().stream()
                .map(l -> client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + l.address().getPort() + "/slow")).build(), HttpResponse.BodyHandlers.ofString()))
                .toList();
        Await.latch("a slow exchange on each listener", inFlight);
        CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> server.stop(30));
        for (var l : Weft.stats(server).listeners()) {
            Await.until("listener " + l.name() + " refuses connections", () -> ConnectProbe.refused(l.address().getPort()));
        }
        release.countDown();
        for (var r : responses) {
            assertTrue(r.get().body().startsWith("done "), r.join().body());
        }
        stopped.get();
    }
}
