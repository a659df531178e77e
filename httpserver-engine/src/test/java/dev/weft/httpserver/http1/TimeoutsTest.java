package dev.weft.httpserver.http1;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.Await;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Header-read, idle and body-read timeouts, and the counters they feed. */
@Timeout(60)
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
        // the client waits for the answer as long as the test may run: a 408 that comes late fails below
        try (RawHttpClient client = RawHttpClient.connect(server.port(), Await.DEFAULT_LIMIT)) {
            long start = System.nanoTime();
            client.send("GET /slow HTTP/1.1\r\n" + HOST + "X-Slow: ");
            AtomicBoolean trickledAll = new AtomicBoolean();
            Thread dripper = Thread.ofVirtual().start(() -> {
                // Slowloris, the pace under test: one byte every 50 ms, never finishing the head; 200 bytes
                // take at least ten seconds, many header timeouts.
                try {
                    for (int i = 0; i < 200 && !Thread.currentThread().isInterrupted(); i++) {
                        Thread.sleep(50);
                        client.send("a");
                    }
                    trickledAll.set(true);
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
                // the timeout is for the whole head: the bytes trickling in did not keep extending it
                assertFalse(trickledAll.get(), "the 408 came only once the client had stopped trickling");
                assertTrue(client.serverClosed(), "connection still open after 408");
            } finally {
                dripper.interrupt();
                dripper.join();
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
        server = TestServer.start(config().headerReadTimeout(Duration.ofSeconds(5)).build());
        try (RawHttpClient client = server.connect()) {
            // the client's pace: three pieces, 100 ms apart, so that each arrives in a read of its own
            client.send("GET /pieces HTTP/1.1\r\n");
            Thread.sleep(100);
            client.send(HOST);
            Thread.sleep(100);
            Response response = client.send("\r\n").readResponse();
            assertEquals(200, response.status(), response::toString);
        }
    }

    @Test
    void aRequestHeadAfterALongDrainOfAnUnreadBodyGetsTheWholeHeaderTimeout() throws Exception {
        Duration headerTimeout = Duration.ofSeconds(1);
        server = TestServer.builder()
                .config(config().headerReadTimeout(headerTimeout).drainTimeout(LONG).minRequestDataRate(0).build())
                .handle("/", TestServer.echoHandler())
                .handle("/unread", exchange -> TestServer.respond(exchange, 200, "answered without reading"))
                .start();
        try (RawHttpClient client = RawHttpClient.connect(server.port(), Await.DEFAULT_LIMIT)) {
            client.send("POST /unread HTTP/1.1\r\n" + HOST + "Content-Length: 20\r\n\r\n" + "x".repeat(5));
            assertEquals(200, client.readResponse().status());
            // The client's pace: the rest of the body comes three header timeouts later, while the server drains
            // it, then the next head in two pieces (a read of its own for the second).
            Thread.sleep(3 * headerTimeout.toMillis());
            client.send("y".repeat(15) + "GET /after HTTP/1.1\r\n");
            Thread.sleep(200);
            Response next = client.send(HOST + "\r\n").readResponse();

            assertEquals(200, next.status(), next::toString);
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
        }
        StatsSnapshot stats = server.awaitStats(s -> s.idleCloses() >= 1);
        assertEquals(1, stats.idleCloses(), stats::toString);
        assertEquals(0, stats.timeoutCloses(), stats::toString);
        assertEquals(0, stats.protocolErrorsTotal(), stats::toString);
    }

    @Test
    void connectionInUseIsNotClosedByTheIdleTimeout() throws Exception {
        server = TestServer.builder()
                .config(config().idleTimeout(SHORT).build())
                .handle("/", exchange -> {
                    if (exchange.getRequestURI().getPath().equals("/busy")) {
                        try {
                            // a pace: the handler is busy for three idle timeouts
                            Thread.sleep(3 * SHORT.toMillis());
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    TestServer.echoHandler().handle(exchange);
                })
                .start();
        try (RawHttpClient client = server.connect()) {
            Response busy = client.send("GET /busy HTTP/1.1\r\n" + HOST + "\r\n").readResponse();
            assertEquals(200, busy.status(), busy::toString);
            assertFalse(busy.hasConnectionToken("close"), busy::toString);
            // the sentinel: the connection is still open, the next request on it is served
            Response next = client.send("GET /next HTTP/1.1\r\n" + HOST + "\r\n").readResponse();
            assertEquals(200, next.status(), next::toString);
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
            Await.latch("the handler's read to fail", failed);
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
            Await.latch("the handler's read to fail", failed);
            assertTrue(endsWithClose(client),
                    "connection still open after the body-read timeout");
        }
    }

    /** Reads a response the server may send, then whether the server closed. */
    private static boolean endsWithClose(RawHttpClient client) throws IOException {
        client.socket().setSoTimeout(Math.toIntExact(Await.DEFAULT_LIMIT.toMillis()));
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
