package dev.weft.websocket.jakarta;

import dev.weft.httpserver.testing.RawWsClient;
import dev.weft.websocket.jakarta.JakartaEndpointClientsTest.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The configurator's say in the handshake: origin check, modifyHandshake, subprotocol negotiation; routing. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HandshakeConfiguratorTest {

    private JakartaServers servers;
    private HttpClient client;

    @BeforeEach
    void start() throws Exception {
        servers = JakartaServers.start(ConfiguredEndpoint.class);
        client = HttpClient.newHttpClient();
    }

    @AfterEach
    void stop() {
        servers.close();
        client.shutdownNow();
    }

    @Test
    void modifyHandshakeSeesTheRequestAndTheServersPreferredSubprotocolIsChosen() throws Exception {
        Received r = new Received();
        WebSocket ws = client.newWebSocketBuilder().header("X-Greeting", "hola").subprotocols("v1", "v2")
                .buildAsync(servers.ws("/configured"), r).get(20, TimeUnit.SECONDS);
        assertEquals("v2", ws.getSubprotocol());
        ws.sendText("m", true).get(20, TimeUnit.SECONDS);
        assertEquals("hola:m:v2", r.next());
    }

    @Test
    void aRefusedOriginGets403() {
        ExecutionException e = assertThrows(ExecutionException.class, () -> client.newWebSocketBuilder()
                .header("Origin", "http://evil.example").buildAsync(servers.ws("/configured"), new Received())
                .get(20, TimeUnit.SECONDS));
        WebSocketHandshakeException refused = assertInstanceOf(WebSocketHandshakeException.class, e.getCause());
        assertEquals(403, refused.getResponse().statusCode());
    }

    @Test
    void modifyHandshakeAddsResponseHeadersAndAnUnknownPathIs404() throws Exception {
        try (RawWsClient c = servers.raw("/configured", null)) {
            assertEquals("yes", c.headers.get("x-weft-configured"), c.headers.toString());
        }
        try (RawWsClient c = RawWsClient.open(servers.server.port(), "/nowhere", null)) {
            assertEquals(404, c.status);
        }
    }
}
