package dev.weft.httpserver.websocket;

import java.nio.ByteBuffer;

/**
 * Callbacks of one WebSocket session. They are called one at a time, in order, on the session's own
 * virtual thread, so a callback may block (a blocking send applies back-pressure to the peer). Every method
 * has an empty default.
 *
 * <p>Text and binary messages arrive whole, up to {@code WebSocketConfig.maxMessageSize}; implement
 * {@link PartialMessageListener} to receive large messages in parts instead. Pings are answered with a pong
 * by the engine before {@link #onPing} is called. A callback that throws closes the session with
 * {@link CloseStatus#INTERNAL_ERROR} after {@link #onError}.
 */
public interface WebSocketListener {

    /** The opening handshake is complete; the session can send. */
    default void onOpen(WebSocketSession session) throws Exception {
    }

    /** A whole text message, validated as UTF-8. */
    default void onText(WebSocketSession session, String message) throws Exception {
    }

    /** A whole binary message; the buffer is the listener's to keep. */
    default void onBinary(WebSocketSession session, ByteBuffer message) throws Exception {
    }

    /** A ping was received (and has been answered). */
    default void onPing(WebSocketSession session, ByteBuffer payload) throws Exception {
    }

    /** A pong was received. */
    default void onPong(WebSocketSession session, ByteBuffer payload) throws Exception {
    }

    /**
     * The session has ended: the close handshake completed (with the peer's or our status), or the
     * connection was lost ({@link CloseStatus#ABNORMAL}). Called exactly once, last.
     */
    default void onClose(WebSocketSession session, CloseStatus status) {
    }

    /** A callback threw, or the connection failed; {@link #onClose} follows. */
    default void onError(WebSocketSession session, Throwable error) {
    }
}
