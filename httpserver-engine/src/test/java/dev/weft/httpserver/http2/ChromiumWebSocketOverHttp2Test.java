package dev.weft.httpserver.http2;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.Http2Config;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.MiniJson;
import dev.weft.httpserver.testing.TestCertificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Headless Chromium (Debian's {@code /usr/bin/chromium}, driven by npm {@code playwright-core}) loads a page from
 * a Weft {@code HttpsServer} over h2 and opens {@code new WebSocket('wss://…/ws')} to the same origin. Chromium
 * bootstraps a WebSocket over HTTP/2 (RFC 8441) only on an existing h2 connection whose SETTINGS enabled it;
 * this build (156) does so by default, no feature flag needed. The server side proves which way it went: the
 * session's {@code httpVersion()} (echoed to the page) and the {@code sessionsOverHttp2} counter.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ChromiumWebSocketOverHttp2Test {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    Path tmp;

    @Test
    void chromiumOpensItsWebSocketOverTheH2ConnectionOfThePage() throws IOException {
        HttpsServer server = start(ServerConfig.defaults());
        try {
            Map<String, Object> page = runPage(server);
            String shown = page.toString();
            assertEquals("h2", page.get("pageProtocol"), shown);
            assertEquals(Boolean.TRUE, page.get("opened"), shown);
            assertNull(page.get("error"), shown);
            assertEquals(List.of("hello over h2", "long:70000"), page.get("messages"), shown);
            assertEquals(Boolean.TRUE, page.get("binaryEcho"), shown);
            assertEquals("HTTP/2.0", page.get("serverHttpVersion"), shown);
            assertEquals(1000, ((Number) page.get("closeCode")).intValue(), shown);
            assertEquals(Boolean.TRUE, page.get("wasClean"), shown);

            StatsSnapshot.WebSocket ws = awaitSessionsEnded(server);
            assertEquals(1, ws.sessionsOpened(), ws::toString);
            assertEquals(1, ws.sessionsOverHttp2(), ws::toString);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void withoutTheSettingChromiumFallsBackToHttp11() throws IOException {
        HttpsServer server = start(ServerConfig.builder()
                .http2(Http2Config.builder().extendedConnect(false).build()).build());
        try {
            Map<String, Object> page = runPage(server);
            String shown = page.toString();
            assertEquals("h2", page.get("pageProtocol"), shown);
            assertNull(page.get("error"), shown);
            assertEquals("HTTP/1.1", page.get("serverHttpVersion"), shown);
            assertEquals(1000, ((Number) page.get("closeCode")).intValue(), shown);

            StatsSnapshot.WebSocket ws = awaitSessionsEnded(server);
            assertEquals(1, ws.sessionsOpened(), ws::toString);
            assertEquals(0, ws.sessionsOverHttp2(), ws::toString);
        } finally {
            server.stop(0);
        }
    }

    /** An h2-by-ALPN server with the test page at {@code /} and the echo endpoint at {@code /ws}. */
    private static HttpsServer start(ServerConfig config) throws IOException {
        HttpsServer server = Weft.createHttpsServer(new InetSocketAddress("127.0.0.1", 0), 0, config);
        server.setHttpsConfigurator(new HttpsConfigurator(TestCertificates.get().serverContext()));
        server.createContext("/", pageHandler());
        server.createContext("/ws", WebSocketOverHttp2Test.echoEndpoint());
        server.start();
        return server;
    }

    private static HttpHandler pageHandler() throws IOException {
        byte[] html;
        try (InputStream in = ChromiumWebSocketOverHttp2Test.class.getResourceAsStream("/browser/ws_over_h2.html")) {
            assertNotNull(in, "test resource /browser/ws_over_h2.html not on the class path");
            html = in.readAllBytes();
        }
        return exchange -> {
            if (!exchange.getRequestURI().getPath().equals("/")) {
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            exchange.sendResponseHeaders(200, html.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(html);
            }
        };
    }

    /** Runs the page in a fresh Chromium profile and returns the JSON its test printed. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> runPage(HttpsServer server) throws IOException {
        Path node = ExternalTools.require("node");
        if (!Files.isExecutable(CHROMIUM)) {
            fail(CHROMIUM + " not found; " + ExternalTools.INSTALL_HINT);
        }
        Path modules = ExternalTools.requireNodeModule("playwright-core");
        Path script = tmp.resolve("run_page.js");
        try (InputStream in = getClass().getResourceAsStream("/browser/run_page.js")) {
            assertNotNull(in, "test resource /browser/run_page.js not on the class path");
            Files.copy(in, script);
        }
        Path profile = Files.createDirectory(tmp.resolve("profile"));
        String url = "https://127.0.0.1:" + server.getAddress().getPort() + "/";
        List<String> command = List.of("env", "NODE_PATH=" + modules, node.toString(), script.toString(), url,
                profile.toString());
        ExternalTools.Result r = ExternalTools.run(command, Duration.ofSeconds(90));
        if (r.exit() != 0) {
            fail("Chromium run failed: " + r.describe());
        }
        String out = r.stdout().strip();
        Object parsed = MiniJson.parse(out.substring(out.lastIndexOf('\n') + 1));
        if (!(parsed instanceof Map)) {
            fail("the page printed no JSON object: " + r.describe());
        }
        return (Map<String, Object>) parsed;
    }

    private static StatsSnapshot.WebSocket awaitSessionsEnded(HttpsServer server) {
        return Await.value("a WebSocket session to have opened and every session to have ended",
                () -> Weft.stats(server).webSocket(), ws -> ws.sessionsOpened() > 0 && ws.sessionsActive() == 0);
    }
}
