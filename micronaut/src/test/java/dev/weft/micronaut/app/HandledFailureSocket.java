package dev.weft.micronaut.app;

import io.micronaut.websocket.CloseReason;
import io.micronaut.websocket.WebSocketSession;
import io.micronaut.websocket.annotation.OnClose;
import io.micronaut.websocket.annotation.OnError;
import io.micronaut.websocket.annotation.OnMessage;
import io.micronaut.websocket.annotation.OnOpen;
import io.micronaut.websocket.annotation.ServerWebSocket;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * A socket whose {@code @OnMessage} throws on {@code throw}, returns a failing publisher on {@code fail later} and
 * echoes anything else, with an {@code @OnError}
 * that only records the failure. Every call is recorded in {@link SocketLog}.
 */
@ServerWebSocket("/failing/handled")
public class HandledFailureSocket {

    private final SocketLog log;

    public HandledFailureSocket(SocketLog log) {
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
        if (message.equals("fail later")) {
            return Mono.error(new IllegalStateException("failed by the publisher @OnMessage returned"));
        }
        return session.send("echo:" + message);
    }

    @OnError
    public void onError(Throwable error, WebSocketSession session) {
        log.call(session, "onError " + error.getClass().getSimpleName() + ": " + error.getMessage());
    }

    @OnClose
    public void onClose(CloseReason reason, WebSocketSession session) {
        log.call(session, "onClose " + reason.getCode());
    }
}
