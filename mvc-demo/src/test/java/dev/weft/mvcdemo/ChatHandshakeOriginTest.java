package dev.weft.mvcdemo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chat's WebSocket handshake is only for pages of the demo's own origin: another site's page cannot open it
 * with the visitor's cookies (cross-site WebSocket hijacking), a same-origin page and a client that sends no
 * {@code Origin} can.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ChatHandshakeOriginTest {

    @LocalServerPort
    int port;

    @Test
    void aHandshakeFromAnotherOriginIsRefused() throws Exception {
        assertThat(handshakeStatus("Origin: http://evil.example\r\n")).startsWith("HTTP/1.1 403 ");
    }

    @Test
    void aHandshakeFromTheDemosOwnOriginIsUpgraded() throws Exception {
        assertThat(handshakeStatus("Origin: http://127.0.0.1:" + port + "\r\n")).startsWith("HTTP/1.1 101 ");
    }

    @Test
    void aHandshakeWithoutOriginIsUpgraded() throws Exception {
        assertThat(handshakeStatus("")).startsWith("HTTP/1.1 101 ");
    }

    private String handshakeStatus(String originHeader) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.getOutputStream().write(("GET /chat-ws HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
                    + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: v12.stomp\r\n"
                    + originHeader + "\r\n").getBytes(StandardCharsets.US_ASCII));
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
        }
    }
}
