package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.RawHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Weft#shutdownGracefully}: the non-blocking drain the Spring Boot integration uses. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ShutdownGracefullyTest {

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private HttpServer server;

    @AfterEach
    void cleanUp() {
        release.countDown();
        server.stop(0);
    }

    private int startWithSlowHandler() throws IOException {
        server = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        server.createContext("/slow", ex -> {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.sendResponseHeaders(200, 4);
            try (OutputStream out = ex.getResponseBody()) {
                out.write("done".getBytes());
            }
        });
        server.start();
        return server.getAddress().getPort();
    }

    @Test
    void inFlightExchangeFinishesAndTheFutureReportsDrained() throws Exception {
        int port = startWithSlowHandler();
        try (RawHttpClient client = RawHttpClient.connect(port)) {
            client.send("GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertTrue(entered.await(5, TimeUnit.SECONDS));

            CompletableFuture<Boolean> done = Weft.shutdownGracefully(server);
            assertFalse(done.isDone(), "must not complete while an exchange is in flight");
            assertNewConnectionRefused(port);

            release.countDown();
            RawHttpClient.Response response = client.readResponse();
            assertEquals(200, response.status());
            assertEquals("close", response.header("Connection"));
            assertTrue(done.get(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void stopDuringAPendingDrainClosesConnectionsAndTheFutureReportsRequestsActive() throws Exception {
        int port = startWithSlowHandler();
        try (RawHttpClient client = RawHttpClient.connect(port)) {
            client.send("GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertTrue(entered.await(5, TimeUnit.SECONDS));

            CompletableFuture<Boolean> done = Weft.shutdownGracefully(server);
            server.stop(0);
            assertFalse(done.get(5, TimeUnit.SECONDS));
            assertTrue(client.serverClosed());
        }
    }

    /**
     * The listener is closed, so a new connection is refused; in the instant before the kernel lets go of the
     * listening socket (the acceptor's accept() still holds it) it may be accepted, and is then answered
     * 503 and closed.
     */
    private static void assertNewConnectionRefused(int port) throws IOException {
        try (RawHttpClient late = RawHttpClient.connect(port)) {
            late.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertEquals(503, late.readResponse().status());
            assertTrue(late.serverClosed());
        } catch (ConnectException refused) {
            // the usual case
        }
    }

    @Test
    void idleServerDrainsAtOnce() throws Exception {
        startWithSlowHandler();
        assertTrue(Weft.shutdownGracefully(server).get(5, TimeUnit.SECONDS));
    }
}
