package dev.weft.websocket.jakarta;

import dev.weft.httpserver.testing.WebSocketTestServers;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicInteger;

/** Endpoints that take messages in parts, recording each part as "kind:content:last" in {@link #EVENTS}. */
final class PartialEndpoints {

    /** What the endpoints received, in order. */
    static final WebSocketTestServers.Events EVENTS = new WebSocketTestServers.Events();
    /** Sessions of {@link TextParts} whose {@code @OnClose} has not run yet. */
    static final AtomicInteger OPEN_TEXT_SESSIONS = new AtomicInteger();

    private PartialEndpoints() {
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    /** Text in parts ({@code String, boolean}); binary whole. */
    @ServerEndpoint("/parts/text")
    public static class TextParts {
        @OnOpen
        public void open() {
            OPEN_TEXT_SESSIONS.incrementAndGet();
        }

        @OnMessage
        public void text(String part, boolean last) {
            EVENTS.add("text:" + part + ":" + last);
        }

        @OnMessage
        public void binary(ByteBuffer whole) {
            EVENTS.add("whole-binary:" + whole.remaining());
        }

        @OnClose
        public void close(CloseReason reason) {
            EVENTS.add("close:" + reason.getCloseCode().getCode());
            OPEN_TEXT_SESSIONS.decrementAndGet();
        }
    }

    /** Binary in parts as {@code ByteBuffer, boolean}; text whole. */
    @ServerEndpoint("/parts/buffer")
    public static class BufferParts {
        @OnMessage
        public void binary(ByteBuffer part, boolean last) {
            byte[] b = new byte[part.remaining()];
            part.get(b);
            EVENTS.add("binary:" + hex(b) + ":" + last);
        }

        @OnMessage
        public void text(String whole) {
            EVENTS.add("whole-text:" + whole);
        }
    }

    /** Binary in parts as {@code boolean, byte[]} (the other order). */
    @ServerEndpoint("/parts/bytes")
    public static class ByteArrayParts {
        @OnMessage
        public void binary(boolean last, byte[] part) {
            EVENTS.add("bytes:" + hex(part) + ":" + last);
        }
    }

    /** {@link MessageHandler.Partial} handlers of text and binary. */
    public static class HandlerParts extends Endpoint {
        @Override
        public void onOpen(Session session, EndpointConfig config) {
            session.addMessageHandler(String.class, (MessageHandler.Partial<String>) (part, last) ->
                    EVENTS.add("handler-text:" + part + ":" + last));
            session.addMessageHandler(ByteBuffer.class, (MessageHandler.Partial<ByteBuffer>) (part, last) -> {
                byte[] b = new byte[part.remaining()];
                part.get(b);
                EVENTS.add("handler-binary:" + hex(b) + ":" + last);
            });
        }
    }
}
