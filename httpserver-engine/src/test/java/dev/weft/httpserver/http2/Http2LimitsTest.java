package dev.weft.httpserver.http2;

import com.sun.net.httpserver.Headers;
import dev.weft.httpserver.ExchangeAttributes;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.Http2Config;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.hpack.HeaderField;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTTP/2 limits and abuse protections, driven frame by frame: each is exceeded on purpose and must give
 * the documented answer (status, RST_STREAM or GOAWAY code) while the server keeps serving new connections.
 */
@Timeout(30)
class Http2LimitsTest {

    private static ServerConfig config(Http2Config.Builder h2) {
        return ServerConfig.builder().http2(h2.build()).build();
    }

    private static void assertServes(TestServer server) throws IOException {
        try (FrameClient c = FrameClient.connect(server.port())) {
            c.get(1, "/still-here");
            assertEquals(200, c.response(1).status());
        }
    }

    private static void assertGoAway(FrameClient c, ErrorCode expected) throws IOException {
        Frame.GoAwayFrame goAway = c.await(Frame.GoAwayFrame.class);
        assertNotNull(goAway, "no GOAWAY before the connection closed");
        assertEquals(expected, goAway.error(), () -> new String(goAway.debugData(), StandardCharsets.UTF_8));
        assertTrue(c.closed(), "connection still open after GOAWAY");
    }

    @Test
    void serverPrefaceAnnouncesTheConfiguredLimits() throws IOException {
        try (TestServer server = TestServer.start(config(Http2Config.builder().maxConcurrentStreams(7)
                .initialWindowSize(100_000).maxHeaderListSize(9000)));
             FrameClient c = FrameClient.connect(server.port())) {
            Frame.SettingsFrame settings = c.await(Frame.SettingsFrame.class);
            Http2Settings announced = Http2Settings.DEFAULTS.apply(settings.settings());
            assertEquals(7, announced.maxConcurrentStreams());
            assertEquals(100_000, announced.initialWindowSize());
            assertEquals(9000, announced.maxHeaderListSize());
        }
    }

    @Test
    void pingFloodGetsEnhanceYourCalm() throws IOException {
        try (TestServer server = TestServer.start(config(Http2Config.builder().maxControlFramesPerSecond(10)))) {
            try (FrameClient c = FrameClient.connect(server.port())) {
                for (int i = 0; i < 100; i++) {
                    c.send(new Frame.PingFrame(false, i));
                }
                assertGoAway(c, ErrorCode.ENHANCE_YOUR_CALM);
            }
            StatsSnapshot s = server.awaitStats(x -> x.protocolErrors().containsKey(ProtocolError.HTTP2_FLOOD));
            assertTrue(s.protocolErrors().containsKey(ProtocolError.HTTP2_FLOOD), s::toString);
            assertServes(server);
        }
    }

    @Test
    void settingsFloodGetsEnhanceYourCalm() throws IOException {
        try (TestServer server = TestServer.start(config(Http2Config.builder().maxControlFramesPerSecond(10)));
             FrameClient c = FrameClient.connect(server.port())) {
            for (int i = 0; i < 100; i++) {
                c.send(new Frame.SettingsFrame(false, java.util.List.of()));
            }
            assertGoAway(c, ErrorCode.ENHANCE_YOUR_CALM);
        }
    }

    @Test
    void emptyDataFloodGetsEnhanceYourCalm() throws IOException {
        try (TestServer server = TestServer.start(config(Http2Config.builder().maxControlFramesPerSecond(10)));
             FrameClient c = FrameClient.connect(server.port())) {
            c.send(new Frame.HeadersFrame(1, c.requestBlock("POST", "/"), false, true));
            try {
                for (int i = 0; i < 100; i++) {
                    c.send(new Frame.DataFrame(1, new byte[0], false));
                }
            } catch (IOException e) {
                // The server may close after its GOAWAY while the flood is still being written ("Broken pipe"):
                // stop writing; the GOAWAY it sent before is still there to read.
            }
            assertGoAway(c, ErrorCode.ENHANCE_YOUR_CALM);
        }
    }

    @Test
    void continuationFloodGetsEnhanceYourCalm() throws IOException {
        try (TestServer server = TestServer.start();
             FrameClient c = FrameClient.connect(server.port())) {
            byte[] block = c.requestBlock("GET", "/");
            c.send(new Frame.HeadersFrame(1, block, true, false));
            for (int i = 0; i < 1000; i++) {
                c.send(new Frame.ContinuationFrame(1, new byte[] {0x40, 0x01, 'x', 0x01, 'y'}, false));
            }
            assertGoAway(c, ErrorCode.ENHANCE_YOUR_CALM);
            assertServes(server);
        }
    }

    @Test
    void rapidResetGetsEnhanceYourCalmAndTheServerStaysUp() throws IOException {
        try (TestServer server = TestServer.start(config(Http2Config.builder().maxResetsPerSecond(10)))) {
            try (FrameClient c = FrameClient.connect(server.port())) {
                for (int id = 1; id < 400; id += 2) {
                    c.get(id, "/");
                    c.send(new Frame.RstStreamFrame(id, ErrorCode.CANCEL));
                }
                assertGoAway(c, ErrorCode.ENHANCE_YOUR_CALM);
            }
            // Every reset costs the budget, whether the stream was still open or its response had already
            // ended it: how many were open when their RST_STREAM came is timing, the flood verdict is not.
            StatsSnapshot s = server.awaitStats(
                    x -> x.protocolErrors().getOrDefault(ProtocolError.HTTP2_FLOOD, 0L) == 1);
            assertEquals(1L, s.protocolErrors().get(ProtocolError.HTTP2_FLOOD), s::toString);
            assertTrue(s.http2().goAwaysSent() >= 1, s::toString);
            assertServes(server);
        }
    }

    @Test
    void streamsBeyondTheConcurrencyLimitAreRefused() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (TestServer server = TestServer.builder()
                .config(config(Http2Config.builder().maxConcurrentStreams(2)))
                .handle("/", ex -> {
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    TestServer.sendFixed(ex, 200, "done".getBytes(StandardCharsets.US_ASCII));
                }).start();
             FrameClient c = FrameClient.connect(server.port())) {
            c.get(1, "/");
            c.get(3, "/");
            c.get(5, "/");
            Frame.RstStreamFrame refused = c.await(Frame.RstStreamFrame.class);
            assertEquals(5, refused.streamId());
            assertEquals(ErrorCode.REFUSED_STREAM, refused.error());
            release.countDown();
            assertEquals(200, c.response(1).status());
            assertEquals(200, c.response(3).status());
        }
    }

    @Test
    void oversizedHeaderListGets431() throws IOException {
        try (TestServer server = TestServer.start(config(Http2Config.builder().maxHeaderListSize(1000)));
             FrameClient c = FrameClient.connect(server.port())) {
            c.send(new Frame.HeadersFrame(1, c.requestBlock("GET", "/", new HeaderField("x-big", "a".repeat(2000))),
                    true, true));
            assertEquals(431, c.response(1).status());
            c.get(3, "/");
            assertEquals(200, c.response(3).status(), "the connection goes on");
        }
    }

    @Test
    void declaredBodyOverTheLimitGets413BeforeTheHandler() throws IOException {
        try (TestServer server = TestServer.start(ServerConfig.builder().maxRequestBodySize(100).build());
             FrameClient c = FrameClient.connect(server.port())) {
            c.send(new Frame.HeadersFrame(1, c.requestBlock("POST", "/",
                    new HeaderField("content-length", "1000")), false, true));
            FrameClient.Response r = c.response(1);
            assertEquals(413, r.status());
        }
    }

    @Test
    void streamedBodyOverTheLimitFailsTheHandlersReadAndGets413() throws IOException {
        try (TestServer server = TestServer.start(ServerConfig.builder().maxRequestBodySize(100).build());
             FrameClient c = FrameClient.connect(server.port())) {
            c.send(new Frame.HeadersFrame(1, c.requestBlock("POST", "/"), false, true));
            c.send(new Frame.DataFrame(1, new byte[150], true));
            assertEquals(413, c.response(1).status());
        }
    }

    @Test
    void idleConnectionGetsGoAwayNoErrorAndIsClosed() throws IOException {
        try (TestServer server = TestServer.start(ServerConfig.builder().idleTimeout(Duration.ofMillis(300)).build());
             FrameClient c = FrameClient.connect(server.port())) {
            c.get(1, "/");
            assertEquals(200, c.response(1).status());
            assertGoAway(c, ErrorCode.NO_ERROR);
            StatsSnapshot s = server.awaitStats(x -> x.idleCloses() >= 1);
            assertTrue(s.idleCloses() >= 1, s::toString);
        }
    }

    @Test
    void aSlowHandlerIsNotCutOffByTheIdleTimeout() throws IOException {
        try (TestServer server = TestServer.builder()
                // not shorter: a reader thread that a loaded machine leaves unscheduled for longer than the idle
                // timeout has its read cut even though the request came in time
                .config(ServerConfig.builder().idleTimeout(Duration.ofMillis(500)).build())
                .handle("/", ex -> {
                    try {
                        Thread.sleep(1500); // a pace: the handler is busy for three idle timeouts
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    TestServer.sendFixed(ex, 200, "slow".getBytes(StandardCharsets.US_ASCII));
                }).start();
             FrameClient c = FrameClient.connect(server.port())) {
            c.get(1, "/");
            FrameClient.Response r = c.response(1);
            assertEquals(200, r.status());
            assertEquals("slow", r.body());
        }
    }

    @Test
    void afterTheClientsGoAwayTheOpenStreamFinishesAndTheConnectionCloses() throws IOException {
        try (TestServer server = TestServer.builder().handle("/", ex -> {
            // the stream is still open when the client's GOAWAY arrives: it is answered only after
            Await.until("the server to receive the client's GOAWAY",
                    () -> Weft.stats(ex.getHttpContext().getServer()).http2().goAwaysReceived() >= 1);
            TestServer.sendFixed(ex, 200, "last".getBytes(StandardCharsets.US_ASCII));
        }).start(); FrameClient c = FrameClient.connect(server.port())) {
            c.get(1, "/");
            c.send(new Frame.GoAwayFrame(1, ErrorCode.NO_ERROR, new byte[0]));
            assertEquals("last", c.response(1).body());
            assertTrue(c.closed());
            StatsSnapshot s = server.awaitStats(x -> x.http2().goAwaysReceived() == 1);
            assertEquals(1, s.http2().goAwaysReceived());
        }
    }

    @Test
    void responseTrailersFollowTheBodyInAHeadersFrameWithEndStream() throws IOException {
        try (TestServer server = TestServer.builder().handle("/", ex -> {
            ex.sendResponseHeaders(200, 0);
            Headers trailers = new Headers();
            trailers.add("X-Checksum", "abc123");
            ex.setAttribute(ExchangeAttributes.RESPONSE_TRAILERS, trailers);
            try (OutputStream out = ex.getResponseBody()) {
                out.write("body".getBytes(StandardCharsets.US_ASCII));
            }
        }).start(); FrameClient c = FrameClient.connect(server.port())) {
            c.get(1, "/");
            Frame.HeadersFrame head = c.await(Frame.HeadersFrame.class);
            assertFalse(head.endStream());
            Frame.DataFrame data = c.await(Frame.DataFrame.class);
            assertEquals("body", new String(data.data(), StandardCharsets.US_ASCII));
            assertFalse(data.endStream());
            Frame.HeadersFrame trailers = c.await(Frame.HeadersFrame.class);
            assertTrue(trailers.endStream());
        }
    }

    @Test
    void aZeroWindowHoldsTheBodyButNotTheHeaders() throws IOException {
        try (TestServer server = TestServer.start(); FrameClient c = FrameClient.connect(server.port())) {
            c.send(new Frame.SettingsFrame(false, java.util.List.of(
                    new Http2Settings.Setting(Http2Settings.INITIAL_WINDOW_SIZE, 0))));
            c.get(1, "/");
            Frame.HeadersFrame head = c.await(Frame.HeadersFrame.class);
            assertEquals(1, head.streamId());
            assertFalse(head.endStream(), "the body is still to come");
            c.send(new Frame.WindowUpdateFrame(1, 1 << 20));
            FrameClient.Response rest = c.response(1);
            assertTrue(rest.body().contains("uri: /"), rest::body);
        }
    }

    @Test
    void streamCountersFollowTheStreams() throws IOException {
        try (TestServer server = TestServer.start(); FrameClient c = FrameClient.connect(server.port())) {
            for (int id = 1; id <= 5; id += 2) {
                c.get(id, "/");
                assertEquals(200, c.response(id).status());
            }
            StatsSnapshot s = server.awaitStats(x -> x.http2().streamsOpened() == 3
                    && x.http2().streamsActive() == 0);
            assertEquals(1, s.http2().connections());
            assertEquals(3, s.http2().streamsOpened());
            assertEquals(0, s.http2().streamsActive());
            assertNull(s.protocolErrors().get(ProtocolError.HTTP2_STREAM_ERROR));
        }
    }
}
