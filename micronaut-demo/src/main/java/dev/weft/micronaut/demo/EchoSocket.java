package dev.weft.micronaut.demo;

import io.micronaut.websocket.WebSocketSession;
import io.micronaut.websocket.annotation.OnMessage;
import io.micronaut.websocket.annotation.ServerWebSocket;
import org.reactivestreams.Publisher;

/** A WebSocket at {@code /ws/echo} that sends every text message back as it came. */
@ServerWebSocket("/ws/echo")
public class EchoSocket {

    @OnMessage
    public Publisher<String> onMessage(String message, WebSocketSession session) {
        return session.send(message);
    }
}
