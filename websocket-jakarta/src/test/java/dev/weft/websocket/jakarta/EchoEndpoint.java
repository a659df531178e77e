package dev.weft.websocket.jakarta;

import jakarta.websocket.OnMessage;
import jakarta.websocket.server.PathParam;
import jakarta.websocket.server.ServerEndpoint;

import java.nio.ByteBuffer;

/** Echoes text prefixed with the room of its path, and binary as it came. */
@ServerEndpoint(value = "/echo/{room}", subprotocols = {"chat", "superchat"})
public class EchoEndpoint {

    /** Text: {@code room:text}. */
    @OnMessage
    public String text(String message, @PathParam("room") String room) {
        return room + ":" + message;
    }

    /** Binary: as it came. */
    @OnMessage
    public ByteBuffer binary(ByteBuffer message) {
        return message;
    }
}
