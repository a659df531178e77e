package dev.weft.httpserver.core;

import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.RawHttpClient.Response;
import dev.weft.httpserver.testing.TestServer;
import dev.weft.httpserver.testing.Trickle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The low-resources mode over real sockets: at {@code maxConnections} a new client takes the place of an idle or
 * stalled connection instead of getting {@code 503}, never of one that is progressing; above
 * {@code lowResourcesThreshold} idle keep-alive connections close after {@code lowResourcesIdleTimeout}.
 */
@Timeout(60)
class LowResourcesTest {

    private static final String HOST = "Host: localhost\r\n";
    private static final Duration LONG = Duration.ofSeconds(60);

    private TestServer server;

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void atTheLimitTheConnectionIdleTheLongestMakesRoomForANewClient() throws Exception {
        server = TestServer.start(config().maxConnections(2).build());
        try (RawHttpClient first = server.connect(); RawHttpClient second = server.connect()) {
            long start = System.nanoTime();
            assertEquals(200, get(first, "/first").status());
            Thread.sleep(500); // a pace: the first is idle for half a second longer
            assertEquals(200, get(second, "/second").status());
            long servedAfterMillis = awaitServed(start);
            assertTrue(servedAfterMillis >= 1000, "evicted after only " + servedAfterMillis + " ms idle");
            assertArrayEquals(new byte[0], first.readUntilClose(), "an idle connection is closed silently");
            assertEquals(200, get(second, "/second-again").status(), "the one idle for less time stays");
        }
        StatsSnapshot stats = server.awaitStats(s -> s.connectionsActive() == 0);
        assertEquals(1, stats.lowResourcesCloses(), stats::toString);
        assertEquals(0, stats.idleCloses(), stats::toString);
    }

    @Test
    void atTheLimitAConnectionStalledInItsHeaderSectionMakesRoomAndGets408() throws Exception {
        assertStalledRequestMakesRoomAndGets408("GET /stalled HTTP/1.1\r\n" + HOST, ProtocolError.HEADER_TIMEOUT);
    }

    @Test
    void atTheLimitAConnectionStalledInItsBodyMakesRoomAndGets408() throws Exception {
        assertStalledRequestMakesRoomAndGets408("POST /stalled HTTP/1.1\r\n" + HOST + "Content-Length: 10\r\n\r\nhel",
                ProtocolError.BODY_TIMEOUT);
    }

    /**
     * A request that stops after {@code sent} makes room, after a second, for a new client at a limit of one, and
     * gets {@code 408}; counted as a low-resources close, not as the {@code timeout} it is not.
     */
    private void assertStalledRequestMakesRoomAndGets408(String sent, ProtocolError timeout) throws Exception {
        server = TestServer.start(config().maxConnections(1).build());
        try (RawHttpClient stalled = server.connect()) {
            long start = System.nanoTime();
            stalled.send(sent); // and nothing more
            long servedAfterMillis = awaitServed(start);
            assertTrue(servedAfterMillis >= 1000, "evicted after only " + servedAfterMillis + " ms of stall");
            Response response = stalled.readResponse();
            assertEquals(408, response.status(), response::toString);
            assertTrue(stalled.serverClosed());
        }
        StatsSnapshot stats = server.awaitStats(s -> s.lowResourcesCloses() >= 1);
        assertEquals(1, stats.lowResourcesCloses(), stats::toString);
        assertFalse(stats.protocolErrors().containsKey(timeout), stats::toString);
    }

    @Test
    void atTheLimitAClientThatStoppedReadingMakesRoomAndIsCut() throws Exception {
        CountDownLatch writeFailed = new CountDownLatch(1);
        HttpHandler endless = exchange -> {
            exchange.sendResponseHeaders(200, 0);
            byte[] piece = new byte[64 * 1024];
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < 16 * 1024; i++) {
                    out.write(piece);
                }
            } catch (IOException e) {
                writeFailed.countDown();
                throw e;
            }
        };
        server = TestServer.builder().config(config().maxConnections(1).build()).handle("/endless", endless)
                .handle("/", TestServer.echoHandler()).start();
        try (RawHttpClient stalled = RawHttpClient.connect(server.port(), Duration.ofSeconds(20), 4096)) {
            long start = System.nanoTime();
            stalled.send("GET /endless HTTP/1.1\r\n" + HOST + "\r\n");
            awaitServed(start);
            Await.latch("the stalled write to be cut", writeFailed);
        }
        StatsSnapshot stats = server.awaitStats(s -> s.lowResourcesCloses() >= 1);
        assertEquals(1, stats.lowResourcesCloses(), stats::toString);
        assertFalse(stats.protocolErrors().containsKey(ProtocolError.WRITE_TIMEOUT), stats::toString);
    }

    @Test
    void atTheLimitAConnectionBelowItsMinimumRateMakesRoomWithinItsGracePeriod() throws Exception {
        server = TestServer.start(config().maxConnections(1).build());
        try (RawHttpClient slow = server.connect()) {
            long start = System.nanoTime();
            slow.send("POST /slow HTTP/1.1\r\n" + HOST + "Content-Length: 1000\r\n\r\n");
            // 5 bytes/s, never quiet for a second, but far below 240 bytes/s: the grace period of a minute is a
            // courtesy the server cannot afford at its limit.
            try (Trickle body = Trickle.start(slow, 1000, Duration.ofMillis(200))) {
                long servedAfterMillis = awaitServed(start);
                assertTrue(servedAfterMillis >= 1000, "evicted after only " + servedAfterMillis + " ms");
                // 408 when the server can still say so: a victim caught waiting for its next bytes gets it, one
                // caught between two of them (its thread busy with the last) is cut without an answer
                List<Response> answers;
                try {
                    answers = slow.readResponsesUntilClose();
                } catch (IOException cut) {
                    answers = List.of();
                }
                List<Response> seen = answers;
                assertTrue(seen.isEmpty() || seen.size() == 1 && seen.get(0).status() == 408, seen::toString);
            }
        }
        StatsSnapshot stats = server.awaitStats(s -> s.lowResourcesCloses() >= 1);
        assertEquals(1, stats.lowResourcesCloses(), stats::toString);
        assertFalse(stats.protocolErrors().containsKey(ProtocolError.REQUEST_DATA_RATE), stats::toString);
    }

    @Test
    void atTheLimitAConnectionThatIsProgressingIsNotEvicted() throws Exception {
        server = TestServer.start(config().maxConnections(1).minRequestDataRate(1).build());
        try (RawHttpClient progressing = server.connect()) {
            progressing.send("POST /progressing HTTP/1.1\r\n" + HOST + "Content-Length: 15\r\n\r\n");
            List<Integer> statuses = new ArrayList<>();
            // 15 bytes, one every 200 ms (the pace): 3 s of a body above its minimum rate here (1 byte/s), never
            // stalled for a second. Another client tries after each byte but the last.
            try (Trickle body = Trickle.start(progressing, 15, Duration.ofMillis(200))) {
                for (int i = 1; i < 15; i++) {
                    int sent = i;
                    Await.until("byte " + sent + " of the body to be sent", () -> body.sent() >= sent);
                    try (RawHttpClient other = server.connect()) {
                        statuses.add(get(other, "/other").status());
                    }
                }
                assertTrue(body.await(Await.DEFAULT_LIMIT));
            }
            Response response = progressing.readResponse();
            assertEquals(200, response.status(), response::toString);
            assertTrue(response.bodyText().contains("body-length: 15"), response::bodyText);
            assertTrue(statuses.stream().allMatch(s -> s == 503), statuses::toString);
        }
        assertEquals(0, server.stats().lowResourcesCloses());
    }

    @Test
    void aboveTheThresholdIdleConnectionsCloseAfterTheLowResourcesIdleTimeout() throws Exception {
        server = TestServer.start(config().maxConnections(10).lowResourcesThreshold(0.5)
                .lowResourcesIdleTimeout(Duration.ofMillis(300)).build());
        List<RawHttpClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 6; i++) { // one more than half of 10
                RawHttpClient c = server.connect();
                clients.add(c);
                assertEquals(200, get(c, "/" + i).status());
            }
            long start = System.nanoTime();
            for (RawHttpClient c : clients) {
                assertArrayEquals(new byte[0], c.readUntilClose(), "an idle connection is closed silently");
            }
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(elapsedMillis >= 250, "closed after only " + elapsedMillis + " ms");
        } finally {
            for (RawHttpClient c : clients) {
                c.close();
            }
        }
        StatsSnapshot stats = server.awaitStats(s -> s.connectionsActive() == 0);
        assertEquals(6, stats.lowResourcesCloses(), stats::toString);
        assertEquals(0, stats.idleCloses(), stats::toString);
    }

    @Test
    void atTheThresholdIdleConnectionsKeepTheirIdleTimeout() throws Exception {
        server = TestServer.start(config().maxConnections(10).lowResourcesThreshold(0.5)
                .lowResourcesIdleTimeout(Duration.ofMillis(200)).build());
        List<RawHttpClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 5; i++) { // half of 10: not above it
                RawHttpClient c = server.connect();
                clients.add(c);
                assertEquals(200, get(c, "/" + i).status());
            }
            Thread.sleep(1000); // a pace, the subject: idle for five low-resources idle timeouts
            // the sentinel: a next request on each connection is served
            for (RawHttpClient c : clients) {
                assertEquals(200, get(c, "/again").status(), "an idle connection was closed");
            }
        } finally {
            for (RawHttpClient c : clients) {
                c.close();
            }
        }
        assertEquals(0, server.stats().lowResourcesCloses());
    }

    /**
     * Retries a request on a new connection until one is answered {@code 200} (not {@code 503}); returns the
     * milliseconds since {@code startNanos}.
     */
    private long awaitServed(long startNanos) {
        Await.value("a new client served", () -> {
            try (RawHttpClient other = server.connect()) {
                return get(other, "/new").status();
            } catch (IOException e) {
                return null;
            }
        }, status -> status == 200);
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    private static Response get(RawHttpClient client, String path) throws IOException {
        return client.send("GET " + path + " HTTP/1.1\r\n" + HOST + "\r\n").readResponse();
    }

    private static ServerConfig.Builder config() {
        // Long timeouts and grace: only the low-resources mode closes anything.
        return ServerConfig.builder().headerReadTimeout(LONG).idleTimeout(LONG).bodyReadTimeout(LONG)
                .writeTimeout(LONG).dataRateGracePeriod(LONG).lowResourcesIdleTimeout(LONG);
    }
}
