package dev.weft.httpserver.http2;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.ExchangeAttributes;
import dev.weft.httpserver.config.Http2Config;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.hpack.HeaderField;
import dev.weft.httpserver.server.WeftExchanges;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * RFC 8441 extended CONNECT, frame by frame: the SETTINGS_ENABLE_CONNECT_PROTOCOL announcement and its
 * switch, the malformed cases (stream error PROTOCOL_ERROR, RFC 9113 §8.1.1), routing by {@code :path},
 * and the tunnel a 2xx opens (bytes both ways under flow control, half-close, per-read timeout).
 */
@Timeout(60)
class ExtendedConnectTest {

    private static final int STREAM = 1;

    private static HeaderField h(String name, String value) {
        return new HeaderField(name, value);
    }

    /** An RFC 8441 §5 WebSocket bootstrap request for {@code path}, as in the RFC's example. */
    private static List<HeaderField> websocketConnect(String path) {
        return List.of(h(":method", "CONNECT"), h(":protocol", "websocket"), h(":scheme", "http"),
                h(":path", path), h(":authority", "server.example.com"), h("sec-websocket-version", "13"),
                h("origin", "http://www.example.com"));
    }

    private static ServerConfig config(Http2Config.Builder h2) {
        return ServerConfig.builder().http2(h2.build()).build();
    }

    /** What a handler saw of its exchange, on one line. */
    private static String describe(HttpExchange ex) {
        return ex.getRequestMethod() + " " + ex.getRequestURI() + " host=" + ex.getRequestHeaders().getFirst("Host")
                + " protocol=" + ex.getAttribute(ExchangeAttributes.CONNECT_PROTOCOL) + " " + ex.getProtocol();
    }

    /**
     * Answers 200 and echoes the tunnel until the client half-closes, then sends {@code bye} and ends;
     * records what it saw of the request.
     */
    private static HttpHandler tunnelEcho(AtomicReference<String> seen) {
        return ex -> {
            seen.set(describe(ex));
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            InputStream in = ex.getRequestBody();
            byte[] buf = new byte[8192];
            for (int n; (n = in.read(buf)) >= 0; ) {
                out.write(buf, 0, n);
                out.flush();
            }
            out.write("bye".getBytes(StandardCharsets.US_ASCII));
            ex.close();
        };
    }

    private static Http2Settings announced(FrameClient c) throws IOException {
        Frame.SettingsFrame settings = c.await(Frame.SettingsFrame.class);
        assertNotNull(settings, "no SETTINGS from the server");
        assertFalse(settings.ack());
        return Http2Settings.DEFAULTS.apply(settings.settings());
    }

    private static void assertServes(FrameClient c, int streamId) throws IOException {
        c.get(streamId, "/still-here");
        int status = c.response(streamId).status();
        assertTrue(status == 200 || status == 404, "connection no longer serves: " + status);
    }

    @Test
    void serverSettingsEnableConnectProtocol() throws IOException {
        try (TestServer server = TestServer.start(); FrameClient c = FrameClient.connect(server.port())) {
            Frame.SettingsFrame settings = c.await(Frame.SettingsFrame.class);
            assertTrue(settings.settings().contains(new Http2Settings.Setting(Http2Settings.ENABLE_CONNECT_PROTOCOL, 1)),
                    settings::toString);
        }
    }

    @Test
    void switchedOffNeitherAnnouncesNorAcceptsProtocol() throws IOException {
        AtomicReference<String> seen = new AtomicReference<>();
        try (TestServer server = TestServer.builder().config(config(Http2Config.builder().extendedConnect(false)))
                .handle("/chat", tunnelEcho(seen)).start();
             FrameClient c = FrameClient.connect(server.port())) {
            assertFalse(announced(c).enableConnectProtocol());
            c.send(new Frame.HeadersFrame(STREAM, c.block(websocketConnect("/chat")), false, true));
            assertEquals(ErrorCode.PROTOCOL_ERROR, c.response(STREAM).reset());
            assertNull(seen.get(), "the handler ran for a malformed request");
            assertServes(c, 3);
        }
    }

    @Test
    void protocolOnGetIsStreamProtocolError() throws IOException {
        try (TestServer server = TestServer.start(); FrameClient c = FrameClient.connect(server.port())) {
            c.send(new Frame.HeadersFrame(STREAM, c.requestBlock("GET", "/chat", h("x-a", "1")), true, true));
            assertEquals(200, c.response(STREAM).status()); // the same request without :protocol is fine
            List<HeaderField> fields = List.of(h(":method", "GET"), h(":protocol", "websocket"), h(":scheme", "http"),
                    h(":path", "/chat"), h(":authority", "localhost"));
            c.send(new Frame.HeadersFrame(3, c.block(fields), true, true));
            assertEquals(ErrorCode.PROTOCOL_ERROR, c.response(3).reset());
            assertServes(c, 5);
        }
    }

    @Test
    void extendedConnectWithoutPathOrSchemeIsStreamProtocolError() throws IOException {
        AtomicReference<String> seen = new AtomicReference<>();
        try (TestServer server = TestServer.builder().handle("/", tunnelEcho(seen)).start();
             FrameClient c = FrameClient.connect(server.port())) {
            List<HeaderField> noPath = websocketConnect("/chat").stream().filter(f -> !f.name().equals(":path")).toList();
            List<HeaderField> noScheme = websocketConnect("/chat").stream()
                    .filter(f -> !f.name().equals(":scheme")).toList();
            c.send(new Frame.HeadersFrame(1, c.block(noPath), false, true));
            c.send(new Frame.HeadersFrame(3, c.block(noScheme), false, true));
            assertEquals(ErrorCode.PROTOCOL_ERROR, c.response(1).reset());
            assertEquals(ErrorCode.PROTOCOL_ERROR, c.response(3).reset());
            assertNull(seen.get(), "the handler ran for a malformed request");
        }
    }

    @Test
    void tunnelCarriesBytesBothWaysUnderFlowControlAndHalfCloses() throws IOException {
        AtomicReference<String> seen = new AtomicReference<>();
        // Small windows on both sides, so the 200 KB cross each only through WINDOW_UPDATEs.
        try (TestServer server = TestServer.builder().config(config(Http2Config.builder().initialWindowSize(16_384)))
                .handle("/", TestServer.echoHandler()).handle("/chat", tunnelEcho(seen)).start();
             FrameClient c = FrameClient.connect(server.port())) {
            int ourWindow = 4096;
            c.send(new Frame.SettingsFrame(false, List.of(
                    new Http2Settings.Setting(Http2Settings.INITIAL_WINDOW_SIZE, ourWindow))));
            Http2Settings theirs = announced(c);
            assertTrue(theirs.enableConnectProtocol());
            c.send(new Frame.HeadersFrame(STREAM, c.block(websocketConnect("/chat?room=1")), false, true));

            Tunnel t = new Tunnel(c, theirs.initialWindowSize(), ourWindow);
            List<HeaderField> head = t.awaitHead();
            assertEquals("200", head.get(0).value());
            assertTrue(head.stream().noneMatch(f -> f.name().equals("content-length")), head::toString);
            assertEquals("CONNECT /chat?room=1 host=server.example.com protocol=websocket HTTP/2.0", seen.get());

            byte[] payload = new byte[200_000];
            new Random(8441).nextBytes(payload);
            byte[] echoed = t.exchange(payload);
            assertArrayEquals(payload, echoed);
            assertTrue(t.streamUpdatesReceived > 0, "the server never reopened its stream window");

            c.send(new Frame.DataFrame(STREAM, new byte[0], true)); // half-close: the server may still send
            assertEquals("bye", t.readToEnd());
            assertServes(c, 3);
        }
    }

    @Test
    void unknownPathAndRefusalAreOrdinaryResponses() throws IOException {
        try (TestServer server = TestServer.builder().handle("/chat", ex -> TestServer.respond(ex, 403, "no\n"))
                .start();
             FrameClient c = FrameClient.connect(server.port())) {
            c.send(new Frame.HeadersFrame(1, c.block(websocketConnect("/nowhere")), false, true));
            FrameClient.Response notFound = c.response(1);
            assertEquals(404, notFound.status());
            assertNull(notFound.reset());
            assertTrue(notFound.body().startsWith("No context found"), notFound.body());

            c.send(new Frame.HeadersFrame(3, c.block(websocketConnect("/chat")), false, true));
            FrameClient.Response refused = c.response(3);
            assertEquals(403, refused.status());
            assertEquals("no\n", refused.body());
        }
    }

    @Test
    void plainConnectStillTunnelsToItsAuthority() throws IOException {
        AtomicReference<String> seen = new AtomicReference<>();
        try (TestServer server = TestServer.builder().handle("/", tunnelEcho(seen)).start();
             FrameClient c = FrameClient.connect(server.port())) {
            c.send(new Frame.HeadersFrame(STREAM, c.block(List.of(h(":method", "CONNECT"),
                    h(":authority", "example.com:443"))), false, true));
            Tunnel t = new Tunnel(c, Http2Settings.DEFAULT_WINDOW_SIZE, Http2Settings.DEFAULT_WINDOW_SIZE);
            assertEquals("200", t.awaitHead().get(0).value());
            assertEquals("CONNECT //example.com:443 host=example.com:443 protocol=null HTTP/2.0", seen.get());
            c.send(new Frame.DataFrame(STREAM, "ping".getBytes(StandardCharsets.US_ASCII), true));
            assertEquals("pingbye", t.readToEnd());
        }
    }

    @Test
    void tunnelReadTimeoutReplacesBodyReadTimeout() throws Exception {
        java.util.concurrent.CompletableFuture<Throwable> failure = new java.util.concurrent.CompletableFuture<>();
        HttpHandler shortWait = ex -> {
            WeftExchanges.transport(ex).tunnelReadTimeout(Duration.ofMillis(300));
            ex.sendResponseHeaders(200, 0);
            try {
                ex.getRequestBody().read();
                failure.complete(null);
            } catch (IOException e) {
                failure.complete(e);
            }
            ex.close();
        };
        HttpHandler noLimit = ex -> {
            WeftExchanges.transport(ex).tunnelReadTimeout(Duration.ZERO);
            tunnelEcho(new AtomicReference<>()).handle(ex);
        };
        ServerConfig cfg = ServerConfig.builder().bodyReadTimeout(Duration.ofMillis(300)).build();
        try (TestServer server = TestServer.builder().config(cfg).handle("/short", shortWait)
                .handle("/unlimited", noLimit).start();
             FrameClient c = FrameClient.connect(server.port())) {
            c.send(new Frame.HeadersFrame(1, c.block(websocketConnect("/short")), false, true));
            FrameClient.Response r = c.response(1);
            assertEquals(200, r.status());
            assertEquals(ErrorCode.CANCEL, r.reset());
            // Http2Stream.readTimedOut() sends the reset before the blocked read throws: wait for the handler.
            assertNotNull(failure.get(10, java.util.concurrent.TimeUnit.SECONDS), "the read did not time out");

            c.send(new Frame.HeadersFrame(3, c.block(websocketConnect("/unlimited")), false, true));
            Tunnel t = new Tunnel(c, Http2Settings.DEFAULT_WINDOW_SIZE, Http2Settings.DEFAULT_WINDOW_SIZE, 3);
            assertEquals("200", t.awaitHead().get(0).value());
            sleep(1200); // a pace: the client is silent for four body-read timeouts, the tunnel's read waits on
            c.send(new Frame.DataFrame(3, "late".getBytes(StandardCharsets.US_ASCII), true));
            assertEquals("latebye", t.readToEnd());
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted");
        }
    }

    /**
     * The client side of one tunnel stream with honest flow control: sends only what the server's windows
     * allow, and checks that the server never sends more than ours allow, returning the space as it reads.
     */
    private static final class Tunnel {
        private final FrameClient c;
        private final int stream;
        private final int ourInitialWindow;
        private long sendStreamWindow;
        private long sendConnectionWindow = Http2Settings.DEFAULT_WINDOW_SIZE;
        private long ourStreamWindow;
        private long ourConnectionWindow = Http2Settings.DEFAULT_WINDOW_SIZE;
        private final ByteArrayOutputStream received = new ByteArrayOutputStream();
        private boolean ended;
        int streamUpdatesReceived;

        Tunnel(FrameClient c, int theirInitialWindow, int ourInitialWindow) {
            this(c, theirInitialWindow, ourInitialWindow, STREAM);
        }

        Tunnel(FrameClient c, int theirInitialWindow, int ourInitialWindow, int stream) {
            this.c = c;
            this.stream = stream;
            this.sendStreamWindow = theirInitialWindow;
            this.ourInitialWindow = ourInitialWindow;
            this.ourStreamWindow = ourInitialWindow;
        }

        List<HeaderField> awaitHead() throws IOException {
            for (int i = 0; i < 100; i++) {
                Frame f = c.next();
                assertNotNull(f, "connection closed before the response head");
                if (f instanceof Frame.HeadersFrame hf) {
                    List<HeaderField> fields = c.fields(hf);
                    if (hf.streamId() == stream) {
                        assertFalse(hf.endStream(), "a 2xx to CONNECT must leave the stream open");
                        return fields;
                    }
                } else {
                    onFrame(f);
                }
            }
            throw new AssertionError("no response head");
        }

        /** Sends {@code payload} through the tunnel and returns what came back once as much has arrived. */
        byte[] exchange(byte[] payload) throws IOException {
            int sent = 0;
            for (int rounds = 0; received.size() < payload.length; rounds++) {
                assertTrue(rounds < 100_000, "tunnel made no progress");
                int allowed = (int) Math.min(Math.min(sendStreamWindow, sendConnectionWindow),
                        Math.min(payload.length - sent, Http2Settings.DEFAULT_MAX_FRAME_SIZE));
                if (allowed > 0) {
                    c.send(new Frame.DataFrame(stream, Arrays.copyOfRange(payload, sent, sent + allowed), false));
                    sent += allowed;
                    sendStreamWindow -= allowed;
                    sendConnectionWindow -= allowed;
                } else {
                    Frame f = c.next();
                    assertNotNull(f, "connection closed mid-tunnel");
                    onFrame(f);
                    assertFalse(ended, "the server ended the tunnel early");
                }
            }
            byte[] out = received.toByteArray();
            received.reset();
            return out;
        }

        /** Reads until the server's END_STREAM and returns what arrived meanwhile. */
        String readToEnd() throws IOException {
            for (int i = 0; !ended && i < 10_000; i++) {
                Frame f = c.next();
                assertNotNull(f, "connection closed before the tunnel ended");
                onFrame(f);
            }
            assertTrue(ended, "the tunnel did not end");
            return received.toString(StandardCharsets.US_ASCII);
        }

        private void onFrame(Frame f) throws IOException {
            switch (f) {
                case Frame.WindowUpdateFrame w when w.streamId() == 0 -> sendConnectionWindow += w.increment();
                case Frame.WindowUpdateFrame w when w.streamId() == stream -> {
                    sendStreamWindow += w.increment();
                    streamUpdatesReceived++;
                }
                case Frame.DataFrame d when d.streamId() == stream -> {
                    int n = d.flowControlledLength();
                    ourStreamWindow -= n;
                    ourConnectionWindow -= n;
                    assertTrue(ourStreamWindow >= 0 && ourConnectionWindow >= 0,
                            "the server overran our flow-control window");
                    received.write(d.data(), 0, d.data().length);
                    ended = d.endStream();
                    List<Frame> updates = new ArrayList<>();
                    if (!ended && ourStreamWindow < ourInitialWindow / 2) {
                        updates.add(new Frame.WindowUpdateFrame(stream, (int) (ourInitialWindow - ourStreamWindow)));
                        ourStreamWindow = ourInitialWindow;
                    }
                    if (ourConnectionWindow < Http2Settings.DEFAULT_WINDOW_SIZE / 2) {
                        updates.add(new Frame.WindowUpdateFrame(0,
                                (int) (Http2Settings.DEFAULT_WINDOW_SIZE - ourConnectionWindow)));
                        ourConnectionWindow = Http2Settings.DEFAULT_WINDOW_SIZE;
                    }
                    for (Frame u : updates) {
                        c.send(u);
                    }
                }
                case Frame.HeadersFrame hf -> {
                    c.fields(hf);
                    if (hf.streamId() == stream && hf.endStream()) {
                        ended = true;
                    }
                }
                case Frame.RstStreamFrame r when r.streamId() == stream -> fail("tunnel reset: " + r.error());
                case Frame.GoAwayFrame g -> fail("GOAWAY " + g.error());
                default -> {
                }
            }
        }
    }
}
