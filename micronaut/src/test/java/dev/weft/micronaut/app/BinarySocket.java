package dev.weft.micronaut.app;

import io.micronaut.websocket.WebSocketSession;
import io.micronaut.websocket.annotation.OnMessage;
import io.micronaut.websocket.annotation.ServerWebSocket;

import java.util.concurrent.CompletableFuture;

/** Answers each binary message with its bytes reversed, as a binary message. */
@ServerWebSocket("/binary")
public class BinarySocket {

    @OnMessage
    public CompletableFuture<byte[]> onMessage(byte[] data, WebSocketSession session) {
        byte[] reversed = new byte[data.length];
        for (int i = 0; i < data.length; i++) {
            reversed[i] = data[data.length - 1 - i];
        }
        return session.sendAsync(reversed);
    }
}
