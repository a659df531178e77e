package dev.weft.spring.boot.servlet.websocket;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;
import org.springframework.web.socket.sockjs.client.RestTemplateXhrTransport;
import org.springframework.web.socket.sockjs.client.SockJsClient;
import org.springframework.web.socket.sockjs.client.WebSocketTransport;

import java.util.List;

import static dev.weft.spring.boot.servlet.websocket.OnWeftWithWebSocket.ALICE;
import static dev.weft.spring.boot.servlet.websocket.OnWeftWithWebSocket.BOB;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * STOMP over SockJS ({@code withSockJS()}) on Weft's servlet server, with Spring's {@link SockJsClient}: over its
 * WebSocket transport, and over the XHR streaming fallback (plain HTTP requests, the receiving one an async
 * servlet response that stays open).
 */
@OnWeftWithWebSocket
class StompOverSockJsTest {

    @LocalServerPort
    int port;

    @Test
    void stompRunsOverTheSockJsWebSocketTransport() throws Exception {
        SockJsClient sockJs = new SockJsClient(List.of(new WebSocketTransport(new StandardWebSocketClient())));

        exchangeChatLines(sockJs);
    }

    @Test
    void stompRunsOverTheXhrFallback() throws Exception {
        SockJsClient sockJs = new SockJsClient(List.of(new RestTemplateXhrTransport()));

        exchangeChatLines(sockJs);
    }

    private void exchangeChatLines(SockJsClient sockJs) throws Exception {
        String url = "http://127.0.0.1:" + port + "/sockjs";
        StompSessions alice = StompSessions.connect(sockJs, url, ALICE, "/topic/chat");
        StompSessions bob = StompSessions.connect(sockJs, url, BOB, "/topic/chat");

        assertThat(alice.whoami()).isEqualTo(ALICE);
        alice.send("/app/chat", "over sockjs");
        bob.send("/app/chat", "and back");

        assertThat(List.of(bob.next("/topic/chat"), bob.next("/topic/chat")))
                .containsExactlyInAnyOrder("alice: over sockjs", "bob: and back");
        assertThat(List.of(alice.next("/topic/chat"), alice.next("/topic/chat")))
                .containsExactlyInAnyOrder("alice: over sockjs", "bob: and back");
        alice.disconnect();
        bob.disconnect();
    }
}
