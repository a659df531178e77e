package dev.weft.httpserver.http2;

import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.Http2Config;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.websocket.WebSocketHandler;
import dev.weft.httpserver.websocket.WebSocketListener;
import dev.weft.httpserver.websocket.WebSocketSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * WebSockets over HTTP/2 (RFC 8441) with a third-party client: Python {@code h2} drives the HTTP/2 connection
 * (prior knowledge on cleartext, ALPN h2 over TLS) and {@code wsproto} the WebSocket on the extended CONNECT
 * stream ({@code src/test/resources/h2/ws_over_h2.py}).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class WebSocketOverHttp2Test {

    /** Echoes text and binary messages; answers the text {@code version} with the session's HTTP version. */
    static HttpHandler echoEndpoint() {
        return WebSocketHandler.builder(handshake -> new WebSocketListener() {
            @Override
            public void onText(WebSocketSession session, String message) throws IOException {
                session.sendText(message.equals("version") ? session.httpVersion() : message);
            }

            @Override
            public void onBinary(WebSocketSession session, ByteBuffer message) throws IOException {
                session.sendBinary(message);
            }
        }).build();
    }

    private static List<String> args(Http2TestServers servers, boolean overTls, String... extra) {
        List<String> args = new ArrayList<>(List.of("--port", String.valueOf(servers.port(overTls))));
        if (overTls) {
            args.add("--tls");
        }
        args.addAll(List.of(extra));
        return args;
    }

    private static StatsSnapshot.WebSocket awaitWebSocketStats(Http2TestServers servers, boolean overTls,
                                                              long sessionsOpened) {
        return Await.value(sessionsOpened + " WebSocket sessions to have opened and every session to have ended",
                () -> Weft.stats(servers.server(overTls)).webSocket(),
                ws -> ws.sessionsOpened() >= sessionsOpened && ws.sessionsActive() == 0);
    }

    @ParameterizedTest(name = "over TLS: {0}")
    @ValueSource(booleans = {false, true})
    void pythonClientRunsAWholeSessionOverExtendedConnect(boolean overTls) throws IOException {
        try (Http2TestServers servers = Http2TestServers.start(ServerConfig.defaults(), Map.of("/ws", echoEndpoint()))) {
            Map<String, Object> out = PythonH2.run("ws_over_h2.py", args(servers, overTls), Duration.ofSeconds(60));
            String shown = out.toString();
            assertNull(out.get("error"), shown);
            assertEquals(1, ((Number) out.get("settings_enable_connect_protocol")).intValue(), shown);
            assertEquals(200, ((Number) out.get("status")).intValue(), shown);
            assertEquals("hello over h2", out.get("text_echo"), shown);
            assertEquals(Boolean.TRUE, out.get("binary_ok"), shown);
            assertEquals("frag-ment \u00e9\u20ac", out.get("fragmented_echo"), shown);
            assertEquals(Boolean.TRUE, out.get("big_ok"), shown);
            assertEquals("are you there", out.get("pong"), shown);
            assertEquals("HTTP/2.0", out.get("server_version"), shown);
            assertEquals(1000, ((Number) out.get("close_code")).intValue(), shown);
            assertEquals(Boolean.TRUE, out.get("stream_ended"), shown);

            StatsSnapshot.WebSocket ws = awaitWebSocketStats(servers, overTls, 1);
            assertEquals(1, ws.sessionsOpened(), ws::toString);
            assertEquals(1, ws.sessionsOverHttp2(), ws::toString);
            assertEquals(0, ws.sessionsActive(), ws::toString);
        }
    }

    @ParameterizedTest(name = "over TLS: {0}")
    @ValueSource(booleans = {false, true})
    void serverWithoutTheSettingRefusesExtendedConnect(boolean overTls) throws IOException {
        ServerConfig off = ServerConfig.builder().http2(Http2Config.builder().extendedConnect(false).build()).build();
        try (Http2TestServers servers = Http2TestServers.start(off, Map.of("/ws", echoEndpoint()))) {
            Map<String, Object> out = PythonH2.run("ws_over_h2.py", args(servers, overTls, "--expect-refusal"),
                    Duration.ofSeconds(60));
            String shown = out.toString();
            assertNull(out.get("error"), shown);
            assertEquals(0, ((Number) out.get("settings_enable_connect_protocol")).intValue(), shown);
            assertNull(out.get("status"), shown);
            assertEquals(ErrorCode.PROTOCOL_ERROR.code(), ((Number) out.get("reset")).intValue(), shown);
            assertEquals(0, Weft.stats(servers.server(overTls)).webSocket().sessionsOpened());
        }
    }

    @Test
    void unknownPathIsAnOrdinary404ForTheWebSocketClient() throws IOException {
        try (Http2TestServers servers = Http2TestServers.start(ServerConfig.defaults(), Map.of("/ws", echoEndpoint()))) {
            Map<String, Object> out = PythonH2.run("ws_over_h2.py", args(servers, false, "--path", "/elsewhere"),
                    Duration.ofSeconds(60));
            assertEquals(404, ((Number) out.get("status")).intValue(), out::toString);
        }
    }
}
