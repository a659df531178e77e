package dev.weft.httpserver.websocket;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.RawWsClient;
import dev.weft.httpserver.testing.TestServer;
import dev.weft.httpserver.testing.WebSocketTestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** WebSocket counters in the snapshot and on the statistics page (text and JSON), beside the proxy counters. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WebSocketStatsTest {

    @Test
    void statsPageShowsWebSocketAndProxyCounters() throws Exception {
        WebSocketTestServers.Events events = new WebSocketTestServers.Events();
        try (TestServer server = TestServer.builder().config(ServerConfig.builder().statsPath("/__stats").build())
                .handle("/echo", WebSocketHandler.builder(h -> WebSocketTestServers.echo(events)).build()).start();
             HttpClient http = HttpClient.newHttpClient()) {
            try (RawWsClient c = RawWsClient.open(server.port(), "/echo", null)) {
                c.sendText("one");
                c.read();
                c.sendText("two");
                c.read();
                c.send(true, 0x3, new byte[0]); // reserved opcode: a protocol close
                assertEquals(1002, c.readClose().closeCode());
            }
            server.awaitStats(s -> s.webSocket().sessionsActive() == 0);
            String text = http.send(HttpRequest.newBuilder(server.uri("/__stats")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            for (String line : new String[] {"websocket_sessions_opened 1", "websocket_sessions_over_http2 0",
                    "websocket_sessions_active 0", "websocket_messages_received 2", "websocket_messages_sent 2",
                    "websocket_protocol_closes 1", "proxy_tunnels_opened 0", "proxy_requests_forwarded 0"}) {
                assertTrue(text.contains(line + "\n"), line + " in\n" + text);
            }
            String json = http.send(HttpRequest.newBuilder(server.uri("/__stats?format=json")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(json.contains("\"websocket_messages_received\":2"), json);
        }
    }
}
