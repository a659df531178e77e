package dev.weft.httpserver.websocket;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.MiniJson;
import dev.weft.httpserver.testing.TestCertificates;
import dev.weft.httpserver.testing.TestServer;
import dev.weft.httpserver.testing.WebSocketTestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Third-party WebSocket clients against the echo endpoint: Python {@code websockets} 17.4 (with
 * permessage-deflate, over ws and over wss against an {@code HttpsServer}) and Node {@code ws} 8.23.0
 * (perMessageDeflate on). The scripts are in {@code src/test/resources/websocket}; a missing tool fails the
 * test under {@code ./run-tests} and CI.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ThirdPartyClientInteropTest {

    private final WebSocketTestServers.Events events = new WebSocketTestServers.Events();
    private TestServer server;
    private HttpsServer tls;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (tls != null) {
            tls.stop(0);
        }
    }

    private static Path script(String name) {
        try (InputStream in = ThirdPartyClientInteropTest.class.getResourceAsStream("/websocket/" + name)) {
            assertNotNull(in, "test resource /websocket/" + name);
            Path dir = Files.createTempDirectory("weft-ws-peer");
            Path p = dir.resolve(name);
            Files.copy(in, p);
            p.toFile().deleteOnExit();
            dir.toFile().deleteOnExit();
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(ExternalTools.Result r) {
        if (r.exit() != 0) {
            fail("client failed: " + r.describe());
        }
        String out = r.stdout().strip();
        return (Map<String, Object>) MiniJson.parse(out.substring(out.lastIndexOf('\n') + 1));
    }

    private Map<String, Object> python(String uri, Path caPem) {
        Path python = ExternalTools.requirePythonModule("websockets");
        List<String> cmd = new ArrayList<>(List.of(python.toString(), script("ws_python_client.py").toString(), uri));
        if (caPem != null) {
            cmd.add(caPem.toString());
        }
        return json(ExternalTools.run(cmd, Duration.ofSeconds(90)));
    }

    private void assertPythonSession(Map<String, Object> r) throws InterruptedException {
        assertEquals("17.4", r.get("version"));
        assertEquals("permessage-deflate", r.get("extensions"), "compression negotiated: " + r);
        assertEquals(List.of("PerMessageDeflate"), r.get("negotiated"));
        assertEquals("hello, wörld", r.get("text"));
        assertEquals(true, r.get("large_text_equal"));
        assertEquals(true, r.get("binary_equal"));
        assertEquals("fragmented €", r.get("fragmented"));
        assertEquals(List.of(1L, 2L, 3L), ((List<?>) r.get("fragmented_binary")).stream()
                .map(o -> ((Number) o).longValue()).toList());
        assertEquals(true, r.get("pong"));
        assertEquals(4000L, ((Number) r.get("close_code")).longValue());
        assertEquals(1009L, ((Number) r.get("too_big_code")).longValue());
        assertEquals(1007L, ((Number) r.get("invalid_utf8_code")).longValue());
        String open = events.next();
        assertEquals(true, open.startsWith("open:permessage-deflate"), "server side negotiated: " + open);
        assertEquals("close:4000", events.close());
    }

    @Test
    void pythonWebsocketsWithCompressionLargeAndFragmentedMessagesAndCloseCodes() throws Exception {
        server = WebSocketTestServers.echoServer(WebSocketConfig.defaults(), events);
        Map<String, Object> r = python("ws://127.0.0.1:" + server.port() + "/echo", null);
        assertPythonSession(r);
        var stats = server.awaitStats(s -> s.webSocket().sessionsActive() == 0).webSocket();
        assertEquals(3, stats.sessionsOpened());
        assertEquals(2, stats.protocolCloses());
    }

    @Test
    void pythonWebsocketsWithASmallServerWindowInflatesEveryEcho() throws Exception {
        // websockets inflates with zlib limited to 2^9 bytes of window: a back-reference further away, into an
        // earlier message or far into a large one, fails its session.
        server = WebSocketTestServers.echoServer(WebSocketConfig.defaults(), events);
        Path python = ExternalTools.requirePythonModule("websockets");
        Map<String, Object> r = json(ExternalTools.run(List.of(python.toString(),
                script("ws_window_bits.py").toString(), "ws://127.0.0.1:" + server.port() + "/echo", "9"),
                Duration.ofSeconds(60)));
        assertEquals("permessage-deflate; server_max_window_bits=9", r.get("extensions"));
        assertEquals(true, r.get("all_equal"), r.toString());
        assertEquals(1000L, ((Number) r.get("close_code")).longValue());
    }

    @Test
    void pythonWebsocketsOverTlsAgainstAnHttpsServer() throws Exception {
        TestCertificates certs = TestCertificates.get();
        tls = Weft.createHttpsServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        tls.setHttpsConfigurator(new HttpsConfigurator(certs.serverContext()));
        tls.createContext("/echo", WebSocketHandler.builder(h -> WebSocketTestServers.echo(events)).build());
        tls.start();
        Map<String, Object> r = python("wss://localhost:" + tls.getAddress().getPort() + "/echo", certs.caPem());
        assertPythonSession(r);
    }

    @Test
    void nodeWsWithPerMessageDeflate() throws Exception {
        server = WebSocketTestServers.echoServer(WebSocketConfig.defaults(), events);
        Path node = ExternalTools.require("node");
        Path modules = ExternalTools.requireNodeModule("ws");
        Map<String, Object> r = json(ExternalTools.run(List.of("env", "NODE_PATH=" + modules, node.toString(),
                script("ws_node_client.js").toString(), "ws://127.0.0.1:" + server.port() + "/echo"),
                Duration.ofSeconds(60)));
        assertEquals("permessage-deflate", ((String) r.get("extensions")).split(";")[0].strip(), r.toString());
        assertEquals("hello from node", r.get("text"));
        assertEquals(true, r.get("bigEqual"));
        assertEquals("fragmented", r.get("fragmented"));
        assertEquals("node-ping", r.get("pong"));
        assertEquals(1000L, ((Number) r.get("closeCode")).longValue());
        assertEquals(true, events.next().startsWith("open:permessage-deflate"));
        assertEquals("close:1000", events.close());
    }

}
