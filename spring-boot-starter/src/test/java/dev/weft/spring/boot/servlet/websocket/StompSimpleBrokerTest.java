package dev.weft.spring.boot.servlet.websocket;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import static dev.weft.spring.boot.servlet.websocket.OnWeftWithWebSocket.ALICE;
import static dev.weft.spring.boot.servlet.websocket.OnWeftWithWebSocket.BOB;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * STOMP over WebSocket with Spring's simple broker on Weft's servlet server ({@code @EnableWebSocketMessageBroker}),
 * with Spring's {@code WebSocketStompClient}: {@code @MessageMapping} with {@code @SendTo} and {@code @SendToUser},
 * the Spring Security principal of the handshake (HTTP basic authentication), and {@code SimpMessagingTemplate} sends from an HTTP request.
 */
@OnWeftWithWebSocket
class StompSimpleBrokerTest {

    @LocalServerPort
    int port;

    private final StandardWebSocketClient webSocket = new StandardWebSocketClient();

    @Test
    void aChatLineReachesEverySubscriberSignedWithTheSendersName() throws Exception {
        StompSessions alice = StompSessions.connect(webSocket, url(), ALICE, "/topic/chat");
        StompSessions bob = StompSessions.connect(webSocket, url(), BOB, "/topic/chat");

        alice.send("/app/chat", "hello, bob");

        assertThat(alice.next("/topic/chat")).isEqualTo("alice: hello, bob");
        assertThat(bob.next("/topic/chat")).isEqualTo("alice: hello, bob");
        alice.disconnect();
        bob.disconnect();
    }

    @Test
    void sendToUserAnswersOnlyTheUserWhoAsked() throws Exception {
        StompSessions alice = StompSessions.connect(webSocket, url(), ALICE, "/topic/chat");
        StompSessions bob = StompSessions.connect(webSocket, url(), BOB, "/topic/chat");

        assertThat(alice.whoami()).isEqualTo(ALICE);
        assertThat(bob.whoami()).isEqualTo(BOB);
        // a broadcast after both answers: by the time it arrives, a misdirected answer would have too
        bob.send("/app/chat", "done");
        assertThat(alice.next("/topic/chat")).isEqualTo("bob: done");
        assertThat(bob.next("/topic/chat")).isEqualTo("bob: done");
        assertThat(alice.pending(StompSessions.WHOAMI)).isEmpty();
        assertThat(bob.pending(StompSessions.WHOAMI)).isEmpty();
        alice.disconnect();
        bob.disconnect();
    }

    @Test
    void simpMessagingTemplateBroadcastsWhatAnHttpRequestPosted() throws Exception {
        StompSessions alice = StompSessions.connect(webSocket, url(), ALICE, "/topic/announcements");

        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/announce"))
                        .header("Content-Type", "text/plain")
                        .POST(HttpRequest.BodyPublishers.ofString("maintenance at noon")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(alice.next("/topic/announcements")).isEqualTo("maintenance at noon");
        alice.disconnect();
    }

    @Test
    void onlyAHandshakeWithTheUsersCredentialsIsUpgraded() throws Exception {
        assertThat(handshakeStatus("mallory:" + OnWeftWithWebSocket.PASSWORD)).startsWith("HTTP/1.1 401 ");
        assertThat(handshakeStatus(ALICE + ":wrong")).startsWith("HTTP/1.1 401 ");
        assertThat(handshakeStatus(ALICE + ":" + OnWeftWithWebSocket.PASSWORD)).startsWith("HTTP/1.1 101 ");
    }

    /** The status line of the answer to a WebSocket handshake for {@code /stomp} with these basic credentials. */
    private String handshakeStatus(String credentials) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.getOutputStream().write(("GET /stomp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
                    + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: v12.stomp\r\n"
                    + "Authorization: Basic " + Base64.getEncoder().encodeToString(
                            credentials.getBytes(StandardCharsets.UTF_8)) + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
        }
    }

    private String url() {
        return "ws://127.0.0.1:" + port + "/stomp";
    }
}
