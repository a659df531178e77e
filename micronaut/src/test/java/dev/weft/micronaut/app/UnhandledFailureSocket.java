package dev.weft.micronaut.app;

import io.micronaut.websocket.CloseReason;
import io.micronaut.websocket.WebSocketSession;
import io.micronaut.websocket.annotation.OnClose;
import io.micronaut.websocket.annotation.OnMessage;
import io.micronaut.websocket.annotation.OnOpen;
import io.micronaut.websocket.annotation.ServerWebSocket;
import org.reactivestreams.Publisher;

/**
 * {@link HandledFailureSocket} without an {@code @OnError} method: what its {@code @OnMessage} throws is left to
 * the server. Every call is recorded in {@link SocketLog}.
 */
@ServerWebSocket("/failing/unhandled")
public class UnhandledFailureSocket {

    private final SocketLog log;

    public UnhandledFailureSocket(SocketLog log) {
        this.log = log;
    }

    @OnOpen
    public void onOpen(WebSocketSession session) {
        log.call(session, "onOpen");
    }

    @OnMessage
    public Publisher<String> onMessage(String message, WebSocketSession session) {
        log.call(session, "onMessage " + message);
        if (message.equals("throw")) {
            throw new IllegalStateException("thrown by @OnMessage");
        }
        return session.send("echo:" + message);
    }

    @OnClose
    public void onClose(CloseReason reason, WebSocketSession session) {
        log.call(session, "onClose " + reason.getCode());
    }
}
