package dev.weft.httpserver.http2;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The low-resources mode counts HTTP/2 connections, not streams: at {@code maxConnections} an HTTP/2
 * connection without open streams is idle and makes room for a new client (with {@code GOAWAY NO_ERROR}),
 * one with a stream open is not.
 */
@Timeout(30)
class Http2LowResourcesTest {

    private static final Duration LONG = Duration.ofSeconds(60);

    @Test
    void atTheLimitAnHttp2ConnectionWithoutOpenStreamsMakesRoomWithGoAway() throws IOException {
        try (TestServer server = TestServer.start(config().build());
             FrameClient h2 = FrameClient.connect(server.port())) {
            h2.get(1, "/");
            assertEquals(200, h2.response(1).status());
            awaitServed(server);
            Frame.GoAwayFrame goAway = h2.await(Frame.GoAwayFrame.class);
            assertNotNull(goAway, "no GOAWAY before the connection closed");
            assertEquals(ErrorCode.NO_ERROR, goAway.error());
            assertTrue(h2.closed(), "connection still open after GOAWAY");
            StatsSnapshot s = server.awaitStats(x -> x.lowResourcesCloses() >= 1);
            assertEquals(1, s.lowResourcesCloses(), s::toString);
            assertEquals(0, s.idleCloses(), s::toString);
        }
    }

    @Test
    void atTheLimitAnHttp2ConnectionWithAStreamOpenIsNotEvicted() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch handling = new CountDownLatch(1);
        try (TestServer server = TestServer.builder().config(config().build()).handle("/", exchange -> {
            handling.countDown();
            try {
                release.await(); // a long poll: nothing to send, nothing to read
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            TestServer.sendFixed(exchange, 200, "released".getBytes(StandardCharsets.US_ASCII));
        }).start(); FrameClient h2 = FrameClient.connect(server.port())) {
            h2.get(1, "/");
            Await.latch("the long poll to start", handling);
            // The other client's pace: 20 tries, 100 ms apart, at least twice as long as a victim must be quiet.
            for (int i = 0; i < 20; i++) {
                try (RawHttpClient other = server.connect()) {
                    assertEquals(503, other.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n").readResponse().status(),
                            "try " + i);
                }
                Thread.sleep(100);
            }
            release.countDown();
            FrameClient.Response r = h2.response(1);
            assertEquals(200, r.status());
            assertEquals(0, server.stats().lowResourcesCloses());
        }
    }

    private static void awaitServed(TestServer server) {
        Await.value("a new client served", () -> {
            try (RawHttpClient other = server.connect()) {
                return other.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n").readResponse().status();
            } catch (IOException e) {
                return null;
            }
        }, status -> status == 200);
    }

    private static ServerConfig.Builder config() {
        return ServerConfig.builder().maxConnections(1).idleTimeout(LONG).headerReadTimeout(LONG)
                .bodyReadTimeout(LONG).writeTimeout(LONG).lowResourcesIdleTimeout(LONG);
    }
}
