package dev.weft.httpserver.websocket;

import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.httpserver.testing.TestServer;
import dev.weft.httpserver.testing.WebSocketTestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JDK's own {@code java.net.http.WebSocket} client against the echo endpoint over HTTP/1.1. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JdkClientInteropTest {

    private final WebSocketTestServers.Events events = new WebSocketTestServers.Events();
    private TestServer server;
    private HttpClient client;

    @BeforeEach
    void start() throws Exception {
        server = WebSocketTestServers.echoServer(WebSocketConfig.defaults(), events);
        client = HttpClient.newHttpClient();
    }

    @AfterEach
    void stop() {
        // The tests check the server's answer to each close themselves. close() alone waits until every
        // WebSocket of the client has closed: after a failed test it would hang (the class's timeout does not
        // cover this method) until the server's idle timeout.
        client.shutdownNow();
        client.close();
        server.close();
    }

    /** Collects what the client receives, one entry per whole message. */
    static final class Collector implements WebSocket.Listener {
        final BlockingQueue<Object> received = new LinkedBlockingQueue<>();
        private final StringBuilder text = new StringBuilder();
        private ByteBuffer binary = ByteBuffer.allocate(0);

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                received.add(text.toString());
                text.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            ByteBuffer joined = ByteBuffer.allocate(binary.remaining() + data.remaining());
            joined.put(binary).put(data).flip();
            binary = joined;
            if (last) {
                received.add(binary);
                binary = ByteBuffer.allocate(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onPong(WebSocket ws, ByteBuffer message) {
            received.add("pong:" + StandardCharsets.UTF_8.decode(message));
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
            received.add("close:" + statusCode + ":" + reason);
            return null;
        }

        Object next() throws InterruptedException {
            Object o = received.poll(10, TimeUnit.SECONDS);
            assertNotNull(o, "nothing received within 10 s");
            return o;
        }
    }

    private WebSocket connect(Collector c) throws Exception {
        return client.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + server.port() + "/echo"), c)
                .get(10, TimeUnit.SECONDS);
    }

    @Test
    void textAndBinaryMessagesAreEchoed() throws Exception {
        Collector c = new Collector();
        WebSocket ws = connect(c);
        ws.sendText("hello, wörld", true).get(5, TimeUnit.SECONDS);
        assertEquals("hello, wörld", c.next());
        byte[] bytes = new byte[100_000];
        new java.util.Random(1).nextBytes(bytes);
        ws.sendBinary(ByteBuffer.wrap(bytes), true).get(5, TimeUnit.SECONDS);
        assertEquals(ByteBuffer.wrap(bytes), c.next());
        ws.sendClose(1000, "bye").get(5, TimeUnit.SECONDS);
        assertEquals("close:1000:", c.next());
        assertEquals("open", events.next());
        assertEquals("text:hello, wörld", events.next());
        assertEquals("binary:100000", events.next());
        assertEquals("close:1000", events.next());
        var stats = server.awaitStats(s -> s.webSocket().sessionsActive() == 0);
        assertEquals(1, stats.webSocket().sessionsOpened());
        assertEquals(2, stats.webSocket().messagesReceived());
        assertEquals(2, stats.webSocket().messagesSent());
    }

    @Test
    void messagesSentInPartsArriveWhole() throws Exception {
        Collector c = new Collector();
        WebSocket ws = connect(c);
        ws.sendText("frag", false).get(5, TimeUnit.SECONDS);
        ws.sendText("men", false).get(5, TimeUnit.SECONDS);
        ws.sendText("ted €", true).get(5, TimeUnit.SECONDS);
        assertEquals("fragmented €", c.next());
        ws.sendBinary(ByteBuffer.wrap(new byte[] {1, 2}), false).get(5, TimeUnit.SECONDS);
        ws.sendBinary(ByteBuffer.wrap(new byte[] {3}), true).get(5, TimeUnit.SECONDS);
        assertEquals(ByteBuffer.wrap(new byte[] {1, 2, 3}), c.next());
        ws.sendClose(1000, "").get(5, TimeUnit.SECONDS);
        assertEquals("close:1000:", c.next());
    }

    @Test
    void pingIsAnsweredWithTheSamePayload() throws Exception {
        Collector c = new Collector();
        WebSocket ws = connect(c);
        ws.sendPing(ByteBuffer.wrap("are you there".getBytes(StandardCharsets.UTF_8))).get(5, TimeUnit.SECONDS);
        assertEquals("pong:are you there", c.next());
        ws.sendClose(1000, "").get(5, TimeUnit.SECONDS);
        assertEquals("close:1000:", c.next());
    }

    @Test
    void serverInitiatedCloseReachesTheClientWithCodeAndReason() throws Exception {
        server.close();
        server = TestServer.builder().handle("/echo", WebSocketHandler.builder(h -> new WebSocketListener() {
            @Override
            public void onText(WebSocketSession s, String m) throws Exception {
                s.close(4001, "done: " + m);
            }
        }).build()).start();
        Collector c = new Collector();
        WebSocket ws = connect(c);
        ws.sendText("x", true).get(5, TimeUnit.SECONDS);
        assertEquals("close:4001:done: x", c.next());
        // The JDK client answers the close by itself when onClose returns.
        assertTrue(ws.isInputClosed());
        server.awaitStats(s -> s.webSocket().sessionsActive() == 0);
        assertEquals(0, server.stats().webSocket().sessionsActive());
    }
}
