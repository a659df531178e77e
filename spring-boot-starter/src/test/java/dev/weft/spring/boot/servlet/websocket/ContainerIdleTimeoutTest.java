package dev.weft.spring.boot.servlet.websocket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;
import org.springframework.web.socket.handler.TextWebSocketHandler;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The session idle timeout set with Spring's {@code ServletServerContainerFactoryBean} is enforced on Weft: a
 * session that receives nothing for that long is closed with {@code 1001}.
 */
@SpringBootTest(classes = {WebSocketTestApplication.class, TestUsers.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = WebSocketTestApplication.IDLE_TIMEOUT_PROPERTY + "=" + ContainerIdleTimeoutTest.IDLE_MILLIS)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ContainerIdleTimeoutTest {

    static final long IDLE_MILLIS = 600;

    @LocalServerPort
    int port;

    @Test
    void aQuietSessionIsClosedWith1001AfterTheIdleTimeout() throws Exception {
        CompletableFuture<CloseStatus> closed = new CompletableFuture<>();
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        WebSocketSession session = new StandardWebSocketClient().execute(new TextWebSocketHandler() {
            @Override
            protected void handleTextMessage(WebSocketSession s, TextMessage message) {
                received.add(message.getPayload());
            }

            @Override
            public void afterConnectionClosed(WebSocketSession s, CloseStatus status) {
                closed.complete(status);
            }
        }, "ws://127.0.0.1:" + port + "/echo").get(20, TimeUnit.SECONDS);
        long opened = System.nanoTime();

        // the session works until it goes quiet
        for (int i = 0; i < 3; i++) {
            session.sendMessage(new TextMessage("ping " + i));
            assertThat(received.poll(20, TimeUnit.SECONDS)).isEqualTo("ping " + i);
        }

        assertThat(closed.get(20, TimeUnit.SECONDS).getCode()).isEqualTo(CloseStatus.GOING_AWAY.getCode());
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - opened)).isGreaterThanOrEqualTo(IDLE_MILLIS);
    }
}
