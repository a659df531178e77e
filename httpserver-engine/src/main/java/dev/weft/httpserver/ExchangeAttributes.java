package dev.weft.httpserver;

/** Names of the exchange attributes Weft provides to handlers ({@code HttpExchange.getAttribute}). */
public final class ExchangeAttributes {

    /**
     * The request's trailer fields as {@code com.sun.net.httpserver.Headers}, available once a chunked
     * request body has been read to its end (empty for a body without trailers).
     */
    public static final String REQUEST_TRAILERS = "dev.weft.request.trailers";

    private ExchangeAttributes() {
    }
}
