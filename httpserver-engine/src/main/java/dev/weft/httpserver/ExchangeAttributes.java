package dev.weft.httpserver;

/** Names of the exchange attributes Weft provides to handlers ({@code HttpExchange.getAttribute}). */
public final class ExchangeAttributes {

    /**
     * The request's trailer fields as {@code com.sun.net.httpserver.Headers}, available once a chunked
     * request body has been read to its end (empty for a body without trailers).
     */
    public static final String REQUEST_TRAILERS = "dev.weft.request.trailers";

    /**
     * Trailer fields to send after the response body: set this attribute to a
     * {@code com.sun.net.httpserver.Headers} before closing the response body. Sent over HTTP/2, and over
     * HTTP/1.1 when the body is chunked (a streamed response, {@code sendResponseHeaders(code, 0)}).
     */
    public static final String RESPONSE_TRAILERS = "dev.weft.response.trailers";

    /**
     * The {@code :protocol} pseudo-header of an HTTP/2 extended CONNECT request (RFC 8441), e.g.
     * {@code websocket}, as a {@code String}; absent for every other request.
     */
    public static final String CONNECT_PROTOCOL = "dev.weft.request.connect-protocol";

    private ExchangeAttributes() {
    }
}
