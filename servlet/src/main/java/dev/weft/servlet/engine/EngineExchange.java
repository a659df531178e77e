package dev.weft.servlet.engine;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.servlet.request.WeftRequest;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;

/**
 * The engine exchange under a servlet request, for protocol layers of the engine that run inside the servlet
 * container (the Jakarta WebSocket container hands an opening handshake to the engine's WebSocket layer this
 * way). Not for applications: once taken over, the container neither answers nor closes the exchange.
 */
public final class EngineExchange {

    private EngineExchange() {
    }

    /** The exchange of {@code request} (unwrapping wrappers), or null when it is not this container's. */
    public static HttpExchange of(ServletRequest request) {
        WeftRequest r = unwrap(request);
        return r == null ? null : r.exchange();
    }

    /**
     * Takes the exchange of {@code request} over: the container will not send a response for it nor close it.
     *
     * @throws IllegalArgumentException if the request is not this container's
     * @throws IllegalStateException    if {@code upgrade} was called on it
     */
    public static HttpExchange takeOver(ServletRequest request) {
        WeftRequest r = unwrap(request);
        if (r == null) {
            throw new IllegalArgumentException("not a request of the Weft servlet container");
        }
        return r.takeOverExchange();
    }

    private static WeftRequest unwrap(ServletRequest request) {
        ServletRequest r = request;
        for (int i = 0; i < 64 && r instanceof ServletRequestWrapper w; i++) {
            r = w.getRequest();
        }
        return r instanceof WeftRequest weft ? weft : null;
    }
}
