package dev.weft.spring.boot.servlet.websocket;

import dev.weft.websocket.jakarta.WeftServerContainer;
import jakarta.servlet.ServletContext;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.socket.BinaryMessage;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;
import org.springframework.web.socket.handler.AbstractWebSocketHandler;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A raw spring-websocket {@code WebSocketHandler} ({@code @EnableWebSocket}) on Weft's servlet server, through
 * Spring's standard upgrade strategy ({@code ServerContainer.upgradeHttpToWebSocket}), reached by Spring's
 * {@link StandardWebSocketClient}; the container Boot's auto-configuration installed takes its defaults from
 * Spring's {@code ServletServerContainerFactoryBean}, and its sessions keep Weft's limits
 * ({@code weft.server.websocket.*}).
 */
@OnWeftWithWebSocket
class SpringWebSocketHandlerTest {

    @LocalServerPort
    int port;

    @Autowired
    ServletContext servletContext;

    @Test
    void theServletContextHasWeftsJakartaContainer() {
        assertThat(servletContext.getAttribute("jakarta.websocket.server.ServerContainer"))
                .isInstanceOf(WeftServerContainer.class);
    }

    @Test
    void aHandlerEchoesTextMessages() throws Exception {
        Client client = connect();

        client.session.sendMessage(new TextMessage("hello"));
        client.session.sendMessage(new TextMessage("ünïcödé ✓"));

        assertThat(client.next()).isEqualTo("hello");
        assertThat(client.next()).isEqualTo("ünïcödé ✓");
        client.session.close(CloseStatus.NORMAL);
        assertThat(client.closed.get(20, TimeUnit.SECONDS).getCode()).isEqualTo(CloseStatus.NORMAL.getCode());
    }

    @Test
    void theSessionHasTheLimitsOfTheServletServerContainerFactoryBean() throws Exception {
        Client client = connect();

        client.session.sendMessage(new TextMessage("limits"));

        assertThat(client.next()).isEqualTo("text=" + WebSocketTestApplication.TEXT_BUFFER
                + " binary=" + WebSocketTestApplication.BINARY_BUFFER
                + " idle=" + WebSocketTestApplication.IDLE_TIMEOUT);
        client.session.close();
    }

    @Test
    void aTextMessageLargerThanTheBufferSizeClosesTheSessionWith1009() throws Exception {
        Client client = connect();

        client.session.sendMessage(new TextMessage("x".repeat(WebSocketTestApplication.TEXT_BUFFER + 1)));

        assertThat(client.closed.get(20, TimeUnit.SECONDS).getCode()).isEqualTo(CloseStatus.TOO_BIG_TO_PROCESS.getCode());
        assertThat(client.received).isEmpty();
    }

    @Test
    void aBinaryMessageOverWeftsMaxMessageSizeClosesTheSessionWith1009() throws Exception {
        Client client = connect();
        byte[] small = new byte[6 * 1024];
        Arrays.fill(small, (byte) 7);

        client.session.sendMessage(new BinaryMessage(small));
        assertThat(client.nextBinary()).isEqualTo(small);
        // within the container's binary buffer size, over weft.server.websocket.max-message-size
        client.session.sendMessage(new BinaryMessage(new byte[OnWeftWithWebSocket.MAX_MESSAGE_SIZE + 1]));

        assertThat(client.closed.get(20, TimeUnit.SECONDS).getCode()).isEqualTo(CloseStatus.TOO_BIG_TO_PROCESS.getCode());
    }

    private Client connect() throws Exception {
        Client client = new Client();
        client.session = new StandardWebSocketClient().execute(client, "ws://127.0.0.1:" + port + "/echo")
                .get(20, TimeUnit.SECONDS);
        return client;
    }

    /** Collects what the server sends and how it closed. */
    private static final class Client extends AbstractWebSocketHandler {

        final BlockingQueue<String> received = new LinkedBlockingQueue<>();
        final BlockingQueue<byte[]> receivedBinary = new LinkedBlockingQueue<>();
        final CompletableFuture<CloseStatus> closed = new CompletableFuture<>();
        WebSocketSession session;

        @Override
        protected void handleTextMessage(WebSocketSession session, TextMessage message) {
            received.add(message.getPayload());
        }

        @Override
        protected void handleBinaryMessage(WebSocketSession session, BinaryMessage message) {
            ByteBuffer payload = message.getPayload();
            byte[] bytes = new byte[payload.remaining()];
            payload.get(bytes);
            receivedBinary.add(bytes);
        }

        @Override
        public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
            closed.complete(status);
        }

        byte[] nextBinary() throws InterruptedException {
            byte[] message = receivedBinary.poll(20, TimeUnit.SECONDS);
            assertThat(message).as("a binary message from the server").isNotNull();
            return message;
        }

        String next() throws InterruptedException {
            String message = received.poll(20, TimeUnit.SECONDS);
            assertThat(message).as("a message from the server").isNotNull();
            return message;
        }
    }
}
