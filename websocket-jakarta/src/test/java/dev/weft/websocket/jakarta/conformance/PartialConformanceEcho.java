package dev.weft.websocket.jakarta.conformance;

import dev.weft.httpserver.testing.WebSocketTestServers;
import jakarta.websocket.CloseReason;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * An echo endpoint whose {@code @OnMessage} methods take messages in parts ({@code boolean last}), so that the
 * conformance cases run through partial delivery (parts per frame, inflated parts, UTF-8 across parts, the
 * message limit in total); it gathers the parts and echoes the message whole when the last arrives, as the
 * cases expect one frame back. Reports "close:code" like {@link ConformanceEcho}.
 */
@ServerEndpoint("/echo")
public class PartialConformanceEcho {

    private final WebSocketTestServers.Events events;
    private final StringBuilder text = new StringBuilder();
    private final ByteArrayOutputStream binary = new ByteArrayOutputStream();

    /** An endpoint instance reporting to {@code events}. */
    public PartialConformanceEcho(WebSocketTestServers.Events events) {
        this.events = events;
    }

    /** Gathers a text part; echoes the message after its last. */
    @OnMessage
    public void text(String part, boolean last, Session session) throws IOException {
        text.append(part);
        if (last) {
            String message = text.toString();
            text.setLength(0);
            session.getBasicRemote().sendText(message);
        }
    }

    /** Gathers a binary part; echoes the message after its last. */
    @OnMessage
    public void binary(ByteBuffer part, boolean last, Session session) throws IOException {
        byte[] bytes = new byte[part.remaining()];
        part.get(bytes);
        binary.writeBytes(bytes);
        if (last) {
            ByteBuffer message = ByteBuffer.wrap(binary.toByteArray());
            binary.reset();
            session.getBasicRemote().sendBinary(message);
        }
    }

    /** Reports the close code. */
    @OnClose
    public void close(CloseReason reason) {
        events.add("close:" + reason.getCloseCode().getCode());
    }
}
