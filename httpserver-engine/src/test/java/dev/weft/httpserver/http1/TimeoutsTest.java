package dev.weft.httpserver.http1;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.RawHttpClient.Response;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Header-read, idle and body-read timeouts, and the counters they feed. */
@Timeout(10)
class TimeoutsTest {

    private static final Duration SHORT = Duration.ofMillis(300);
    private static final Duration LONG = Duration.ofSeconds(20);
    private static final String HOST = "Host: localhost\r\n";

    private TestServer server;

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void slowHeaderSectionGets408AndTheConnectionIsClosed() throws Exception {
        server = TestServer.start(config().headerReadTimeout(SHORT).build());
        try (RawHttpClient client = server.connect()) {
            long start = System.nanoTime();
            client.send("GET /slow HTTP/1.1\r\n" + HOST + "X-Slow: ");
            Thread dripper = Thread.ofVirtual().start(() -> {
                // Slowloris: one byte every 50 ms, never finishing the head, until the server gives up.
                try {
                    for (int i = 0; i < 100 && !Thread.currentThread().isInterrupted(); i++) {
                        Thread.sleep(50);
                        client.send("a");
                    }
                } catch (IOException | InterruptedException stopped) {
                    // server closed, or test over
                }
            });
            try {
                Response response = client.readResponse();
                long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertEquals(408, response.status(), response::toString);
                assertTrue(response.hasConnectionToken("close"), () -> "no Connection: close in\n" + response);
                assertTrue(elapsedMillis >= 250, "408 after only " + elapsedMillis + " ms");
                assertTrue(elapsedMillis < 2000, "trickling bytes kept the head alive for " + elapsedMillis + " ms");
                assertTrue(client.serverClosed(), "connection still open after 408");
            } finally {
                dripper.interrupt();
                dripper.join(2000);
            }
        }
        StatsSnapshot stats = server.awaitStats(s -> s.timeoutCloses() >= 1
                && s.protocolErrors().getOrDefault(ProtocolError.HEADER_TIMEOUT, 0L) >= 1);
        assertEquals(1, stats.timeoutCloses(), stats::toString);
        assertEquals(1L, stats.protocolErrors().get(ProtocolError.HEADER_TIMEOUT), stats::toString);
        assertEquals(0, stats.idleCloses(), stats::toString);
    }

    @Test
    void headSentInPiecesWithinTheTimeoutIsServed() throws Exception {
        server = TestServer.start(config().headerReadTimeout(Duration.ofSeconds(2)).build());
        try (RawHttpClient client = server.connect()) {
            client.send("GET /pieces HTTP/1.1\r\n");
            Thread.sleep(100);
            client.send(HOST);
            Thread.sleep(100);
            Response response = client.send("\r\n").readResponse();
            assertEquals(200, response.status(), response::toString);
        }
    }

    @Test
    void idleKeepAliveConnectionIsClosedSilentlyAfterTheIdleTimeout() throws IOException {
        server = TestServer.start(config().idleTimeout(SHORT).build());
        try (RawHttpClient client = server.connect()) {
            Response response = client.send("GET /once HTTP/1.1\r\n" + HOST + "\r\n").readResponse();
            assertEquals(200, response.status(), response::toString);
            assertFalse(response.hasConnectionToken("close"), "first response should keep the connection alive");
            long start = System.nanoTime();
            byte[] after = client.readUntilClose();
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertArrayEquals(new byte[0], after, () -> "idle close is silent, got: " + new String(after));
            assertTrue(elapsedMillis >= 200, "closed after only " + elapsedMillis + " ms");
            assertTrue(elapsedMillis < 2000, "closed after " + elapsedMillis + " ms");
        }
        StatsSnapshot stats = server.awaitStats(s -> s.idleCloses() >= 1);
        assertEquals(1, stats.idleCloses(), stats::toString);
        assertEquals(0, stats.timeoutCloses(), stats::toString);
        assertEquals(0, stats.protocolErrorsTotal(), stats::toString);
    }

    @Test
    void connectionInUseIsNotClosedByTheIdleTimeout() throws Exception {
        server = TestServer.start(config().idleTimeout(SHORT).build());
        try (RawHttpClient client = server.connect()) {
            for (int i = 0; i < 5; i++) {
                Response response = client.send("GET /busy/" + i + " HTTP/1.1\r\n" + HOST + "\r\n").readResponse();
                assertEquals(200, response.status(), response::toString);
                Thread.sleep(150);
            }
        }
        assertEquals(0, server.stats().idleCloses());
    }

    @Test
    void stalledBodyFailsTheHandlersReadAndTheConnectionIsClosed() throws Exception {
        AtomicReference<IOException> failure = new AtomicReference<>();
        CountDownLatch failed = new CountDownLatch(1);
        server = TestServer.builder()
                .config(config().bodyReadTimeout(SHORT).build())
                .handle("/", exchange -> {
                    try {
                        TestServer.drain(exchange.getRequestBody());
                    } catch (IOException e) {
                        failure.set(e);
                        failed.countDown();
                        throw e;
                    }
                    TestServer.respond(exchange, 200, "read the whole body");
                })
                .start();
        try (RawHttpClient client = server.connect()) {
            long start = System.nanoTime();
            client.send("POST /stall HTTP/1.1\r\n" + HOST + "Content-Length: 10\r\n\r\nhello");
            assertTrue(failed.await(3, TimeUnit.SECONDS), "handler's read did not fail");
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(elapsedMillis >= 250, "read failed after only " + elapsedMillis + " ms");
            assertInstanceOf(IOException.class, failure.get());
            // Whatever the server writes (if anything), it then closes the connection.
            assertTrue(endsWithClose(client),
                    "connection still open after the body-read timeout");
        }
        StatsSnapshot stats = server.awaitStats(s -> s.timeoutCloses() >= 1
                && s.protocolErrors().getOrDefault(ProtocolError.BODY_TIMEOUT, 0L) >= 1);
        assertEquals(1, stats.timeoutCloses(), stats::toString);
        assertEquals(1L, stats.protocolErrors().get(ProtocolError.BODY_TIMEOUT), stats::toString);
    }

    @Test
    void stalledChunkedBodyFailsTheHandlersReadToo() throws Exception {
        CountDownLatch failed = new CountDownLatch(1);
        server = TestServer.builder()
                .config(config().bodyReadTimeout(SHORT).build())
                .handle("/", exchange -> {
                    try {
                        TestServer.drain(exchange.getRequestBody());
                    } catch (IOException e) {
                        failed.countDown();
                        throw e;
                    }
                    TestServer.respond(exchange, 200, "read the whole body");
                })
                .start();
        try (RawHttpClient client = server.connect()) {
            client.send("POST /stall HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n5\r\nhel");
            assertTrue(failed.await(3, TimeUnit.SECONDS), "handler's read did not fail");
            assertTrue(endsWithClose(client),
                    "connection still open after the body-read timeout");
        }
    }

    /** Reads a response the server may send, then whether the server closed. */
    private static boolean endsWithClose(RawHttpClient client) throws IOException {
        client.socket().setSoTimeout(3000);
        try {
            client.readUntilClose();
            return true;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        }
    }

    private static ServerConfig.Builder config() {
        return ServerConfig.builder().headerReadTimeout(LONG).idleTimeout(LONG).bodyReadTimeout(LONG);
    }
}
