package dev.weft.httpserver.websocket;

import dev.weft.httpserver.testing.RawWsClient;
import dev.weft.httpserver.testing.TestServer;
import dev.weft.httpserver.testing.WebSocketTestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The HTTP/1.1 opening handshake (RFC 6455 §4.2) on the wire: what is accepted, and how the rest is answered. */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HandshakeTest {

    private TestServer server;

    @BeforeEach
    void start() throws IOException {
        server = TestServer.builder()
                .handle("/echo", WebSocketHandler.builder(h -> WebSocketTestServers.echo(new WebSocketTestServers.Events()))
                        .subprotocols("v2.chat", "v1.chat")
                        .originCheck(o -> o == null || o.equals("https://good.example"))
                        .build())
                .handle("/refuse", WebSocketHandler.builder(h -> null).build())
                .handle("/pick", WebSocketHandler.builder(h -> {
                    h.selectSubprotocol(h.requestedSubprotocols().get(h.requestedSubprotocols().size() - 1));
                    return new WebSocketListener() { };
                }).subprotocols("a").build())
                .start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static String request(String method, String... fields) {
        StringBuilder b = new StringBuilder(method + " /echo HTTP/1.1\r\nHost: localhost\r\n");
        for (String f : fields) {
            b.append(f).append("\r\n");
        }
        return b.append("\r\n").toString();
    }

    private static final String[] VALID = {"Upgrade: websocket", "Connection: keep-alive, Upgrade",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"};

    private RawWsClient send(String request) throws IOException {
        return RawWsClient.handshake(server.port(), request);
    }

    @Test
    void validHandshakeIsAnswered101WithTheAcceptOfRfc6455Section1_3() throws IOException {
        try (RawWsClient c = send(request("GET", VALID))) {
            assertEquals(101, c.status);
            // The example of §1.3: key "dGhlIHNhbXBsZSBub25jZQ==" gives "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=".
            assertEquals("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", c.headers.get("sec-websocket-accept"));
            assertEquals("websocket", c.headers.get("upgrade").toLowerCase());
            assertEquals("upgrade", c.headers.get("connection").toLowerCase());
            assertNull(c.headers.get("sec-websocket-protocol"));
        }
    }

    @Test
    void requestWithoutUpgradeGets426WithUpgradeWebsocket() throws IOException {
        try (RawWsClient c = send(request("GET"))) {
            assertEquals(426, c.status);
            assertEquals("websocket", c.headers.get("upgrade"));
        }
    }

    @Test
    void otherVersionGets426ListingVersion13() throws IOException {
        try (RawWsClient c = send(request("GET", "Upgrade: websocket", "Connection: Upgrade",
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 8"))) {
            assertEquals(426, c.status);
            assertEquals("13", c.headers.get("sec-websocket-version"));
        }
    }

    @Test
    void keyThatIsNotBase64Of16BytesGets400() throws IOException {
        for (String key : List.of("c2hvcnQ=", "not base64 at all!!!!!!!", "dGhlIHNhbXBsZSBub25jZQ==dGhl")) {
            try (RawWsClient c = send(request("GET", "Upgrade: websocket", "Connection: Upgrade",
                    "Sec-WebSocket-Key: " + key, "Sec-WebSocket-Version: 13"))) {
                assertEquals(400, c.status, key);
            }
        }
        try (RawWsClient c = send(request("GET", "Upgrade: websocket", "Connection: Upgrade",
                "Sec-WebSocket-Version: 13"))) {
            assertEquals(400, c.status, "missing key");
        }
    }

    @Test
    void upgradeWithoutConnectionUpgradeGets400() throws IOException {
        try (RawWsClient c = send(request("GET", "Upgrade: websocket", "Connection: keep-alive",
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"))) {
            assertEquals(400, c.status);
        }
    }

    @Test
    void postWithUpgradeGets400() throws IOException {
        String[] fields = {VALID[0], VALID[1], VALID[2], VALID[3], "Content-Length: 0"};
        try (RawWsClient c = send(request("POST", fields))) {
            assertEquals(400, c.status);
        }
    }

    @Test
    void refusedOriginGets403AndAllowedOriginOpens() throws IOException {
        String[] bad = {VALID[0], VALID[1], VALID[2], VALID[3], "Origin: https://evil.example"};
        try (RawWsClient c = send(request("GET", bad))) {
            assertEquals(403, c.status);
        }
        String[] good = {VALID[0], VALID[1], VALID[2], VALID[3], "Origin: https://good.example"};
        try (RawWsClient c = send(request("GET", good))) {
            assertEquals(101, c.status);
        }
    }

    @Test
    void factoryReturningNullGets403() throws IOException {
        try (RawWsClient c = send(request("GET", VALID).replace("/echo", "/refuse"))) {
            assertEquals(403, c.status);
        }
    }

    @Test
    void firstSupportedSubprotocolTheClientOfferedIsSelected() throws IOException {
        String[] fields = {VALID[0], VALID[1], VALID[2], VALID[3], "Sec-WebSocket-Protocol: v1.chat, v2.chat"};
        try (RawWsClient c = send(request("GET", fields))) {
            assertEquals(101, c.status);
            assertEquals("v2.chat", c.headers.get("sec-websocket-protocol"));
        }
        String[] none = {VALID[0], VALID[1], VALID[2], VALID[3], "Sec-WebSocket-Protocol: v9"};
        try (RawWsClient c = send(request("GET", none))) {
            assertEquals(101, c.status);
            assertFalse(c.headers.containsKey("sec-websocket-protocol"));
        }
    }

    @Test
    void listenerFactoryCanSelectAnotherOfferedSubprotocol() throws IOException {
        String[] fields = {VALID[0], VALID[1], VALID[2], VALID[3], "Sec-WebSocket-Protocol: a", "Sec-WebSocket-Protocol: b"};
        try (RawWsClient c = send(request("GET", fields).replace("/echo", "/pick"))) {
            assertEquals(101, c.status);
            assertEquals("b", c.headers.get("sec-websocket-protocol"));
        }
    }
}
