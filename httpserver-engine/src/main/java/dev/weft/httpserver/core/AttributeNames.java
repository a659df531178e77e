package dev.weft.httpserver.core;

/**
 * The names of the exchange attributes the engine itself answers, declared once for the runtime and for the
 * public {@code dev.weft.httpserver.ExchangeAttributes}, which documents them.
 */
public final class AttributeNames {

    public static final String REQUEST_TRAILERS = "dev.weft.request.trailers";
    public static final String RESPONSE_TRAILERS = "dev.weft.response.trailers";
    public static final String CONNECT_PROTOCOL = "dev.weft.request.connect-protocol";
    public static final String CONNECTION_ID = "dev.weft.connection.id";
    public static final String PROTOCOL_REQUEST_ID = "dev.weft.request.protocol-id";
    public static final String CLIENT_ORIGIN = "dev.weft.request.origin";
    public static final String PROXY_HEADER = "dev.weft.connection.proxy-header";

    private AttributeNames() {
    }
}
