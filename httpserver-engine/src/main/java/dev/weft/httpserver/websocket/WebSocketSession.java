package dev.weft.httpserver.websocket;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpPrincipal;

import javax.net.ssl.SSLSession;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One open WebSocket, over HTTP/1.1 or over an HTTP/2 stream alike. Sends may come from any thread; they are
 * written in the order they were made. Blocking sends return once the frame is written (under HTTP/2, once
 * flow control let it go), which is how a fast producer is held back by a slow peer.
 */
public interface WebSocketSession {

    /** The opening request's URI (path and query). */
    URI requestUri();

    /** The opening request's header fields, read-only. */
    Headers requestHeaders();

    /** The HTTP version the session runs over: {@code HTTP/1.1} or {@code HTTP/2.0}. */
    String httpVersion();

    /** The negotiated subprotocol, or {@code null} if none. */
    String subprotocol();

    /** The negotiated extensions as sent in {@code Sec-WebSocket-Extensions}, e.g. {@code permessage-deflate}. */
    List<String> extensions();

    /** The peer's address. */
    InetSocketAddress remoteAddress();

    /** The local address the session was accepted on. */
    InetSocketAddress localAddress();

    /** The principal an {@code Authenticator} set on the opening request, or {@code null}. */
    HttpPrincipal principal();

    /** The TLS session, or {@code null} on cleartext. */
    SSLSession sslSession();

    /** Attributes of this session, for the application; thread-safe. */
    Map<String, Object> attributes();

    /** Whether the session can still send data (no close frame sent or received yet). */
    boolean isOpen();

    /**
     * Sends a whole text message; blocks until it is written.
     *
     * @throws IllegalArgumentException if {@code text} holds a lone UTF-16 surrogate, which has no UTF-8 form
     *                                  (a text frame must be valid UTF-8, RFC 6455 §8.1); nothing is sent
     */
    void sendText(CharSequence text) throws IOException;

    /** Sends a whole binary message (the buffer's remaining bytes); blocks until it is written. */
    void sendBinary(ByteBuffer data) throws IOException;

    /**
     * Sends one part of a text message; the message ends with {@code last}. Other data messages cannot be
     * sent until it has ended. A surrogate pair must not be split between parts.
     *
     * @throws IllegalArgumentException if {@code part} holds a lone UTF-16 surrogate; nothing is sent
     */
    void sendText(CharSequence part, boolean last) throws IOException;

    /**
     * Sends one part of a binary message; the message ends with {@code last}. Other data messages cannot be
     * sent until it has ended.
     */
    void sendBinary(ByteBuffer part, boolean last) throws IOException;

    /**
     * Queues a whole text message and returns at once; the future completes when it is written, and fails
     * with {@link IllegalArgumentException} at once if {@code text} holds a lone UTF-16 surrogate.
     */
    CompletableFuture<Void> sendTextAsync(CharSequence text);

    /**
     * Queues a whole binary message and returns at once; the future completes when it is written. The
     * buffer must not change until then.
     */
    CompletableFuture<Void> sendBinaryAsync(ByteBuffer data);

    /** Sends a ping with up to 125 bytes of payload. */
    void sendPing(ByteBuffer payload) throws IOException;

    /** Sends an unsolicited pong with up to 125 bytes of payload. */
    void sendPong(ByteBuffer payload) throws IOException;

    /** Starts the close handshake with {@link CloseStatus#NORMAL}. */
    default void close() throws IOException {
        close(CloseStatus.NORMAL, "");
    }

    /**
     * Starts the close handshake: sends a close frame, then waits (up to {@code closeTimeout}) for the
     * peer's before the connection ends. Does nothing if a close frame was already sent.
     *
     * @param code   a sendable close code ({@link CloseStatus#isSendable})
     * @param reason at most 123 bytes in UTF-8
     */
    void close(int code, String reason) throws IOException;

    /** Ends the connection at once, without a close handshake. */
    void abort();
}
