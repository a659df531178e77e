package dev.weft.httpserver.core;

import com.sun.net.httpserver.Headers;

import javax.net.ssl.SSLSession;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;

/**
 * One request/response on some protocol, as the API layer sees it. HTTP/1.1 implements it per request;
 * HTTP/2 per stream. The API layer applies {@code HttpExchange} semantics on top.
 */
public interface ExchangeTransport {

    String method();

    /**
     * The request URI; the target was validated when the head was parsed. An origin-form target's raw path is
     * exactly as sent, even when it starts with {@code //} ({@link TargetPaths#originUri}).
     */
    URI requestUri();

    /**
     * The decoded path used to find the context: {@code requestUri().getPath()}, or {@code "/"} where that is
     * empty or absent (authority-form, asterisk-form, absolute-form without a path).
     */
    String routingPath();

    /** {@code HTTP/1.1}, {@code HTTP/1.0} or {@code HTTP/2.0}. */
    String protocol();

    /** The request target exactly as received, for logs. */
    String rawTarget();

    /** The request fields, read-only. */
    Headers requestHeaders();

    InetSocketAddress remoteAddress();

    InetSocketAddress localAddress();

    /**
     * The client's address for the access log: the one trusted forwarded headers name once
     * {@link #clientAddress(InetSocketAddress)} has told it, else the connection's remote address.
     */
    default InetSocketAddress clientAddress() {
        return remoteAddress();
    }

    /** The client's address as trusted forwarded headers name it; called before the handler runs. */
    default void clientAddress(InetSocketAddress address) {
    }

    /** The PROXY protocol header the connection started with, or {@code null}. */
    default dev.weft.httpserver.proxyprotocol.ProxyHeader proxyHeader() {
        return null;
    }

    /** The TLS session, or {@code null} on cleartext. */
    SSLSession sslSession();

    /** The framed request body. */
    InputStream requestBody();

    /** Trailer fields once the body has been read to its end, else {@code null}. */
    Headers requestTrailers();

    /** Sends an interim {@code 1xx} response (not 101); dropped for clients that cannot receive one. */
    void sendInterim(int status, Headers headers) throws IOException;

    /**
     * Sends the final response head and returns the stream for its body. Closing that stream completes
     * the exchange.
     *
     * @param length body length as given to {@code sendResponseHeaders}: negative for none, 0 for unknown
     *               (streamed), positive for exactly that many bytes; HEAD, 204 and 304 never carry a body
     * @throws IOException if a header is invalid (nothing is sent then) or the connection failed
     */
    OutputStream sendResponse(int status, Headers headers, long length) throws IOException;

    /**
     * Trailer fields to send after the response body, set before the body is closed; protocols that cannot
     * carry them for this response ignore them.
     */
    default void setResponseTrailers(Headers trailers) {
    }

    /**
     * Sets how long one read of the switched streams may wait once the exchange has become a raw connection
     * (after {@code 101}) or a tunnel (a 2xx to {@code CONNECT}); zero waits without limit. Until set,
     * HTTP/1.1 uses {@code idleTimeout} and HTTP/2 {@code bodyReadTimeout}. For protocol handlers of the
     * engine (WebSocket, proxy) that keep their own idle rules.
     */
    default void tunnelReadTimeout(java.time.Duration timeout) {
    }

    /**
     * Releases the connection's own read and write buffers once the exchange has become a raw connection
     * (after {@code 101}), keeping any input not read yet; for protocol handlers of the engine that buffer
     * the switched streams themselves (WebSocket), so that an idle connection keeps no buffers. Reads and
     * writes then go straight to the socket. Does nothing before the switch and where the protocol frames
     * the streams itself (HTTP/2).
     */
    default void releaseBuffers() throws IOException {
    }

    /**
     * Ends the output direction of a raw connection (after {@code 101}) or a tunnel (after a 2xx to
     * {@code CONNECT}) while its input side stays readable, as a TCP half-close does: what the response
     * stream buffered is sent first, then the end (HTTP/1.1: TLS {@code close_notify} if secured, then a TCP
     * FIN; HTTP/2: {@code END_STREAM}, RFC 9113 §8.5). Later writes to the response stream fail; closing the
     * exchange still ends it. Idempotent.
     *
     * @throws IOException if the exchange is not a raw connection or tunnel, or the connection failed
     */
    void shutdownTunnelOutput() throws IOException;

    /**
     * The {@code :protocol} of an HTTP/2 extended CONNECT (RFC 8441), e.g. {@code websocket}; {@code null}
     * for every other request. Exposed to handlers as {@code ExchangeAttributes.CONNECT_PROTOCOL}.
     */
    default String connectProtocol() {
        return null;
    }

    /** The connection's id, unique among those this JVM's servers accepted (see {@code CONNECTION_ID}). */
    String connectionId();

    /** The protocol's id of this request: the HTTP/2 stream id, or empty for HTTP/1.x. */
    default String protocolRequestId() {
        return "";
    }

    /** The turn on its carrier of the thread the exchange's handler is called on; null when unknown. */
    default CarrierTurn turn() {
        return null;
    }

    /** Whether the final response head has been sent. */
    boolean responseStarted();

    /** Records the authenticated user name, for the access log. */
    void authenticated(String user);

    /** The exchange is over (its response stream or the exchange was closed). Idempotent. */
    void complete();

    /**
     * The exchange failed (a handler threw): answer 500 if nothing was sent yet, else break the response
     * off (on an HTTP/2 tunnel, RST_STREAM {@code CONNECT_ERROR}, or {@code CANCEL} for an RFC 8441
     * extended CONNECT; on HTTP/1.1 the raw connection closes). A response already framed completely is not
     * broken off: it stays complete and the connection usable. Completes the exchange; a read or write
     * blocked on a raw connection or tunnel fails.
     */
    void abort(Throwable cause);

    /**
     * {@link #abort} from any thread, also while the handler's thread writes: an unfinished response is cut
     * without sending what is buffered of it (HTTP/1.1 closes the connection, HTTP/2 resets the stream).
     */
    default void breakOff(Throwable cause) {
        abort(cause);
    }

    /**
     * Whether the client broke the exchange: its request body could not be read to the end (reset, closed,
     * malformed, too slow) or a response write to it failed. A handler failing then is the client's doing.
     */
    default boolean clientFailed() {
        return false;
    }

    /**
     * Whether a stop of the server closed the exchange's connection while it was in progress: a handler failing
     * then is cut short by our own stop, not at fault.
     */
    default boolean closedByStop() {
        return false;
    }
}
