package dev.weft.websocket.jakarta;

import jakarta.websocket.OnMessage;
import jakarta.websocket.server.ServerEndpoint;

/** Echoes text and binary messages unchanged (partial text is delivered whole). */
@ServerEndpoint("/ws")
public class PlainEcho {

    /** Text as it came. */
    @OnMessage
    public String text(String m) {
        return m;
    }

    /** Binary as it came. */
    @OnMessage
    public byte[] binary(byte[] m) {
        return m;
    }
}
