package dev.weft.websocket.jakarta;

import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.MiniJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The annotated echo ({@code /echo/{room}}, text and binary, a path parameter) and the programmatic endpoint
 * reached by Python {@code websockets}, Node {@code ws} (each with and without permessage-deflate) and the JDK
 * {@code HttpClient} WebSocket (which does not offer compression).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JakartaEndpointClientsTest {

    private JakartaServers servers;

    @BeforeEach
    void start() throws Exception {
        servers = JakartaServers.start();
    }

    @AfterEach
    void stop() {
        servers.close();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(ExternalTools.Result r) {
        if (r.exit() != 0) {
            fail("client failed: " + r.describe());
        }
        String out = r.stdout().strip();
        return (Map<String, Object>) MiniJson.parse(out.substring(out.lastIndexOf('\n') + 1));
    }

    private Map<String, Object> python(String path, String mode) {
        Path python = ExternalTools.requirePythonModule("websockets");
        return json(ExternalTools.run(List.of(python.toString(), JakartaServers.script("py_client.py").toString(),
                servers.ws(path).toString(), mode), Duration.ofSeconds(40)));
    }

    @Test
    void pythonWebsocketsReachesTheAnnotatedEchoWithItsPathParameterCompressedAndNot() {
        Map<String, Object> deflate = python("/echo/lobby", "deflate");
        assertEquals("permessage-deflate", String.valueOf(deflate.get("extensions")).split(";")[0], deflate.toString());
        assertEquals("chat", deflate.get("subprotocol"));
        assertEquals("lobby:hello, wörld", deflate.get("text"));
        assertEquals(true, deflate.get("binary_equal"));
        assertEquals(200006L, ((Number) deflate.get("big_length")).longValue());

        Map<String, Object> plain = python("/echo/kitchen", "none");
        assertNull(plain.get("extensions"), plain.toString());
        assertEquals("kitchen:hello, wörld", plain.get("text"));
        assertEquals(true, plain.get("binary_equal"));
    }

    @Test
    void pythonWebsocketsReachesTheProgrammaticEndpoint() {
        Map<String, Object> r = python("/programmatic", "deflate");
        assertEquals("permessage-deflate", String.valueOf(r.get("extensions")).split(";")[0], r.toString());
        assertEquals("prog:hello, wörld", r.get("text"));
        assertEquals(true, r.get("binary_equal"));
        assertEquals(200005L, ((Number) r.get("big_length")).longValue());
    }

    private Map<String, Object> node(String path, String mode) throws Exception {
        Path node = ExternalTools.require("node");
        Path modules = ExternalTools.requireNodeModule("ws");
        return json(ExternalTools.run(List.of("env", "NODE_PATH=" + modules, node.toString(),
                JakartaServers.script("node_client.js").toString(), servers.ws(path).toString(), mode),
                Duration.ofSeconds(40)));
    }

    @Test
    void nodeWsReachesBothEndpointsCompressedAndNot() throws Exception {
        Map<String, Object> annotated = node("/echo/garden", "deflate");
        assertEquals("permessage-deflate", String.valueOf(annotated.get("extensions")).split(";")[0].strip(),
                annotated.toString());
        assertEquals("chat", annotated.get("subprotocol"));
        assertEquals("garden:hello from node", annotated.get("text"));
        assertEquals(true, annotated.get("binaryEqual"));
        assertEquals(1000L, ((Number) annotated.get("closeCode")).longValue());

        Map<String, Object> programmatic = node("/programmatic", "none");
        assertEquals("", programmatic.get("extensions"), programmatic.toString());
        assertEquals("prog:hello from node", programmatic.get("text"));
        assertEquals(true, programmatic.get("binaryEqual"));
    }

    @Test
    void jdkHttpClientWebSocketReachesBothEndpoints() throws Exception {
        try (HttpClient client = HttpClient.newHttpClient()) {
            for (String path : List.of("/echo/attic", "/programmatic")) {
                Received received = new Received();
                WebSocket ws = client.newWebSocketBuilder().subprotocols("chat")
                        .buildAsync(servers.ws(path), received).get(20, TimeUnit.SECONDS);
                assertEquals("chat", ws.getSubprotocol());
                ws.sendText("hi", true).get(20, TimeUnit.SECONDS);
                assertEquals(path.equals("/programmatic") ? "prog:hi" : "attic:hi", received.next());
                ws.sendBinary(ByteBuffer.wrap(new byte[] {1, 2, 3}), true).get(20, TimeUnit.SECONDS);
                assertEquals("binary:3", received.next());
                ws.sendClose(1000, "bye").get(20, TimeUnit.SECONDS);
                assertEquals("close:1000", received.next());
            }
        }
        Await.until("sessions ended", () -> servers.server.stats().webSocket().sessionsActive() == 0);
        assertEquals(2, servers.server.stats().webSocket().sessionsOpened());
    }

    /** A JDK WebSocket listener that queues what it receives as strings. */
    static final class Received implements WebSocket.Listener {
        private final LinkedBlockingQueue<String> queue = new LinkedBlockingQueue<>();
        private final StringBuilder text = new StringBuilder();
        private int binary;

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                queue.add(text.toString());
                text.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
            binary += data.remaining();
            if (last) {
                queue.add("binary:" + binary);
                binary = 0;
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            queue.add("close:" + statusCode);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            queue.add("error:" + error);
        }

        String next() throws InterruptedException {
            String s = queue.poll(20, TimeUnit.SECONDS);
            if (s == null) {
                throw new AssertionError("nothing received in 20 s");
            }
            return s;
        }

        String next(Duration limit) throws InterruptedException {
            String s = queue.poll(limit.toMillis(), TimeUnit.MILLISECONDS);
            if (s == null) {
                throw new AssertionError("nothing received in " + limit);
            }
            return s;
        }

    }
}
