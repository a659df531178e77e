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

    /**
     * Where the request really came from, as a {@code dev.weft.httpserver.forwarded.ClientOrigin}: the client's
     * address, the scheme and host it used, and a stripped path prefix, from a trusted proxy's
     * {@code Forwarded}/{@code X-Forwarded-*} fields when {@code forwarded.enabled} is on, else from the
     * connection. Also {@link Weft#origin}.
     */
    public static final String CLIENT_ORIGIN = AttributeNames.CLIENT_ORIGIN;

    /**
     * The PROXY protocol header the connection started with, as a
     * {@code dev.weft.httpserver.proxyprotocol.ProxyHeader} (its addresses, its TLVs, and from a v2 SSL TLV the
     * client's TLS version, cipher and certificate common name: {@code ProxyHeader.tls()}); absent when
     * {@code forwarded.proxyProtocol} is off.
     */
    public static final String PROXY_HEADER = AttributeNames.PROXY_HEADER;

    private ExchangeAttributes() {
    }
}
