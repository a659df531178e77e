package dev.weft.websocket.jakarta;

import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.MiniJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An annotated endpoint over HTTP/2 (RFC 8441 extended CONNECT, cleartext prior knowledge), reached by the
 * engine's own third-party client script ({@code h2} + {@code wsproto}, in the engine's test resources).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WebSocketOverHttp2Test {

    @Test
    @SuppressWarnings("unchecked")
    void anAnnotatedEndpointWorksOverAnExtendedConnectStream() throws Exception {
        Path script = Path.of("../httpserver-engine/src/test/resources/h2/ws_over_h2.py").toAbsolutePath().normalize();
        assertTrue(Files.isRegularFile(script), "the engine's client script " + script);
        Path python = ExternalTools.requirePythonModule("h2");
        ExternalTools.requirePythonModule("wsproto");
        try (JakartaServers servers = JakartaServers.start(PlainEcho.class)) {
            ExternalTools.Result r = ExternalTools.run(List.of(python.toString(), script.toString(),
                    "--port", String.valueOf(servers.server.port()), "--path", "/ws"), Duration.ofSeconds(40));
            String stdout = r.stdout().strip();
            Map<String, Object> out = (Map<String, Object>) MiniJson.parse(
                    stdout.substring(stdout.lastIndexOf('\n') + 1));
            String shown = out + " " + r.describe();
            assertNull(out.get("error"), shown);
            assertEquals(200, ((Number) out.get("status")).intValue(), shown);
            assertEquals("hello over h2", out.get("text_echo"), shown);
            assertEquals(Boolean.TRUE, out.get("binary_ok"), shown);
            assertEquals("frag-ment \u00e9\u20ac", out.get("fragmented_echo"), shown);
            assertEquals(Boolean.TRUE, out.get("big_ok"), shown);
            assertEquals(1000, ((Number) out.get("close_code")).intValue(), shown);
            var ws = servers.server.awaitStats(s -> s.webSocket().sessionsActive() == 0).webSocket();
            assertEquals(1, ws.sessionsOverHttp2(), ws::toString);
        }
    }
}
