package dev.weft.websocket.jakarta;

import dev.weft.websocket.jakarta.JakartaEndpointClientsTest.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        List<String> head = handshake("/configured");
        assertEquals("HTTP/1.1 101 Switching Protocols", head.get(0));
        assertTrue(head.stream().anyMatch(h -> h.equalsIgnoreCase("X-Weft-Configured: yes")), head.toString());
        assertTrue(handshake("/nowhere").get(0).startsWith("HTTP/1.1 404"));
    }

    private List<String> handshake(String path) throws Exception {
        try (Socket s = new Socket("127.0.0.1", servers.server.port())) {
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
            List<String> lines = new ArrayList<>();
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                lines.add(line);
            }
            return lines;
        }
    }
}
