package dev.weft.httpserver;

import dev.weft.httpserver.core.AttributeNames;

/** Names of the exchange attributes Weft provides to handlers ({@code HttpExchange.getAttribute}). */
public final class ExchangeAttributes {

    /**
     * The request's trailer fields as {@code com.sun.net.httpserver.Headers}, available once a chunked
     * request body has been read to its end (empty for a body without trailers).
     */
    public static final String REQUEST_TRAILERS = AttributeNames.REQUEST_TRAILERS;

    /**
     * Trailer fields to send after the response body: set this attribute to a
     * {@code com.sun.net.httpserver.Headers} before closing the response body. Sent over HTTP/2, and over
     * HTTP/1.1 when the body is chunked (a streamed response, {@code sendResponseHeaders(code, 0)}).
     */
    public static final String RESPONSE_TRAILERS = AttributeNames.RESPONSE_TRAILERS;

    /**
     * The {@code :protocol} pseudo-header of an HTTP/2 extended CONNECT request (RFC 8441), e.g.
     * {@code websocket}, as a {@code String}; absent for every other request.
     */
    public static final String CONNECT_PROTOCOL = AttributeNames.CONNECT_PROTOCOL;

    /**
     * The connection the exchange came on, as a {@code String} unique among the connections this JVM's Weft
     * servers have accepted (the same for every exchange of one connection, HTTP/2 streams included); for
     * logs and for a servlet container's {@code ServletConnection.getConnectionId()}.
     */
    public static final String CONNECTION_ID = AttributeNames.CONNECTION_ID;

    /**
     * The protocol's own identifier of the request, as a {@code String}: the HTTP/2 stream id, or empty for
     * HTTP/1.x (a servlet container's {@code getProtocolRequestId()}).
     */
    public static final String PROTOCOL_REQUEST_ID = AttributeNames.PROTOCOL_REQUEST_ID;

    private ExchangeAttributes() {
    }
}
