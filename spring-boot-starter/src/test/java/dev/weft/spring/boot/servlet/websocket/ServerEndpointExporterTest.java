package dev.weft.spring.boot.servlet.websocket;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;
import org.springframework.web.socket.handler.TextWebSocketHandler;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An {@code @ServerEndpoint} class that Spring's {@code ServerEndpointExporter} deploys on the container Boot's
 * auto-configuration installed: its path template is routed by the container, beside Spring's own handlers.
 */
@OnWeftWithWebSocket
class ServerEndpointExporterTest {

    @LocalServerPort
    int port;

    @Test
    void anExportedAnnotatedEndpointAnswersAtItsPathTemplate() throws Exception {
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        WebSocketSession session = new StandardWebSocketClient().execute(new TextWebSocketHandler() {
            @Override
            protected void handleTextMessage(WebSocketSession s, TextMessage message) {
                received.add(message.getPayload());
            }
        }, "ws://127.0.0.1:" + port + "/jakarta-echo/cellar").get(20, TimeUnit.SECONDS);

        session.sendMessage(new TextMessage("hello"));

        assertThat(received.poll(20, TimeUnit.SECONDS)).isEqualTo("cellar:hello");
        session.close(CloseStatus.NORMAL);
    }
}
