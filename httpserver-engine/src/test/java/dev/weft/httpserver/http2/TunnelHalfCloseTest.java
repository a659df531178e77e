package dev.weft.httpserver.http2;

import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.core.ExchangeTransport;
import dev.weft.httpserver.hpack.HeaderField;
import dev.weft.httpserver.server.WeftExchanges;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A tunnel stream's half-close, frame by frame (RFC 9113 §8.5): the server's END_STREAM leaves the client's
 * side open, and once both sides have ended nothing else (no RST_STREAM) is sent; a broken tunnel is reset
 * with CONNECT_ERROR, a broken RFC 8441 one with CANCEL.
 */
@Timeout(60)
class TunnelHalfCloseTest {

    private static final int STREAM = 1;

    private static HeaderField h(String name, String value) {
        return new HeaderField(name, value);
    }

    private static Frame.HeadersFrame connect(FrameClient c, HeaderField... extra) {
        List<HeaderField> fields = new java.util.ArrayList<>(List.of(h(":method", "CONNECT")));
        fields.addAll(List.of(extra));
        if (extra.length == 0) {
            fields.add(h(":authority", "example.com:443"));
        }
        return new Frame.HeadersFrame(STREAM, c.block(fields), false, true);
    }

    @Test
    void bothSidesEndWithEndStreamAndNoReset() throws Exception {
        AtomicReference<String> writeAfterShutdown = new AtomicReference<>();
        AtomicReference<String> clientSent = new AtomicReference<>();
        CountDownLatch closed = new CountDownLatch(1);
        HttpHandler handler = ex -> {
            try {
                ExchangeTransport transport = WeftExchanges.transport(ex);
                ex.sendResponseHeaders(200, 0);
                OutputStream out = ex.getResponseBody();
                out.write("hello".getBytes(StandardCharsets.US_ASCII));
                transport.shutdownTunnelOutput();
                transport.shutdownTunnelOutput(); // idempotent
                try {
                    out.write('x');
                } catch (IOException e) {
                    writeAfterShutdown.set(e.getMessage());
                }
                clientSent.set(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.US_ASCII));
                ex.close();
            } finally {
                closed.countDown();
            }
        };
        try (TestServer server = TestServer.builder().handle("/", handler).start();
             FrameClient c = FrameClient.connect(server.port())) {
            c.send(connect(c));
            ByteArrayOutputStream down = new ByteArrayOutputStream();
            boolean headSeen = false;
            for (boolean ended = false; !ended; ) {
                Frame f = c.next();
                assertNotNull(f, "connection closed mid-tunnel");
                switch (f) {
                    case Frame.HeadersFrame hf when hf.streamId() == STREAM -> {
                        assertEquals("200", c.fields(hf).get(0).value());
                        assertFalse(hf.endStream(), "a 2xx to CONNECT leaves the stream open");
                        headSeen = true;
                    }
                    case Frame.DataFrame d when d.streamId() == STREAM -> {
                        down.write(d.data());
                        ended = d.endStream();
                    }
                    case Frame.RstStreamFrame r -> fail("reset after the server's half-close: " + r.error());
                    default -> {
                    }
                }
            }
            assertTrue(headSeen);
            assertEquals("hello", down.toString(StandardCharsets.US_ASCII));
            // Half-closed (remote) for us: our side still carries data, then ends.
            c.send(new Frame.DataFrame(STREAM, "world".getBytes(StandardCharsets.US_ASCII), true, 0));
            assertTrue(closed.await(10, TimeUnit.SECONDS), "the handler did not finish");
            assertEquals("world", clientSent.get());
            assertNotNull(writeAfterShutdown.get(), "a write after the half-close must fail");
            // Anything the server sent for the stream on closing is queued before the PING's ACK.
            c.send(new Frame.PingFrame(false, 42));
            for (Frame f; ; ) {
                f = c.next();
                assertNotNull(f, "connection closed");
                if (f instanceof Frame.RstStreamFrame r) {
                    fail("RST_STREAM " + r.error() + " after both sides ended");
                }
                if (f instanceof Frame.PingFrame p && p.ack()) {
                    break;
                }
            }
        }
    }

    @Test
    void abortedTunnelIsResetWithConnectError() throws IOException {
        try (TestServer server = TestServer.builder().handle("/", abortAfter200()).start();
             FrameClient c = FrameClient.connect(server.port())) {
            c.send(connect(c));
            FrameClient.Response r = c.response(STREAM);
            assertEquals(200, r.status());
            assertEquals(ErrorCode.CONNECT_ERROR, r.reset());
        }
    }

    @Test
    void abortedExtendedConnectIsResetWithCancel() throws IOException {
        try (TestServer server = TestServer.builder().handle("/chat", abortAfter200()).start();
             FrameClient c = FrameClient.connect(server.port())) {
            c.send(connect(c, h(":protocol", "websocket"), h(":scheme", "http"), h(":path", "/chat"),
                    h(":authority", "server.example.com"), h("sec-websocket-version", "13")));
            FrameClient.Response r = c.response(STREAM);
            assertEquals(200, r.status());
            assertEquals(ErrorCode.CANCEL, r.reset(), "RFC 8441 §5: a TCP RST is RST_STREAM CANCEL");
        }
    }

    /** Answers 200, then breaks the tunnel off as the proxy does when its target resets. */
    private static HttpHandler abortAfter200() {
        return ex -> {
            ex.sendResponseHeaders(200, 0);
            ex.getResponseBody().flush();
            WeftExchanges.transport(ex).abort(new IOException("target reset"));
        };
    }

    @Test
    void anOrdinaryResponseCannotBeHalfClosed() throws IOException {
        AtomicReference<String> refused = new AtomicReference<>();
        HttpHandler handler = ex -> {
            ex.sendResponseHeaders(200, 0);
            try {
                WeftExchanges.transport(ex).shutdownTunnelOutput();
            } catch (IOException e) {
                refused.set(e.getMessage());
            }
            ex.getResponseBody().write("body".getBytes(StandardCharsets.US_ASCII));
            ex.close();
        };
        try (TestServer server = TestServer.builder().handle("/", handler).start();
             FrameClient c = FrameClient.connect(server.port())) {
            c.get(STREAM, "/");
            FrameClient.Response r = c.response(STREAM);
            assertEquals(200, r.status());
            assertEquals("body", r.body());
            assertNotNull(refused.get(), "shutdownTunnelOutput on a GET must fail");
        }
    }
}
