package dev.weft.websocket.jakarta.container;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.websocket.jakarta.session.QueryParameters;
import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.server.HandshakeRequest;

import java.net.URI;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The opening handshake as a {@link HandshakeRequest} (read-only, header names case-insensitive) and the
 * {@link HandshakeResponse} whose headers a configurator's {@code modifyHandshake} may add to the answer.
 */
final class HandshakeView implements HandshakeRequest {

    private final HttpExchange exchange;
    private final Object httpSession;
    private final Map<String, List<String>> requestHeaders;
    private final Map<String, List<String>> responseHeaders = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final HandshakeResponse response = () -> responseHeaders;

    HandshakeView(HttpExchange exchange, Object httpSession) {
        this.exchange = exchange;
        this.httpSession = httpSession;
        Map<String, List<String>> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        exchange.getRequestHeaders().forEach((k, v) -> h.put(k, List.copyOf(v)));
        this.requestHeaders = java.util.Collections.unmodifiableMap(h);
    }

    /** Copies the headers {@code modifyHandshake} set onto the exchange's response. */
    void applyResponseHeaders() {
        responseHeaders.forEach((k, v) -> {
            if (v != null && !v.isEmpty()) {
                exchange.getResponseHeaders().put(k, new ArrayList<>(v));
            }
        });
    }

    @Override
    public Map<String, List<String>> getHeaders() {
        return requestHeaders;
    }

    /** The response side: its headers are the answer's. */
    HandshakeResponse response() {
        return response;
    }

    @Override
    public Principal getUserPrincipal() {
        return exchange.getPrincipal();
    }

    @Override
    public URI getRequestURI() {
        return exchange.getRequestURI();
    }

    @Override
    public boolean isUserInRole(String role) {
        return false;
    }

    @Override
    public Object getHttpSession() {
        return httpSession;
    }

    @Override
    public Map<String, List<String>> getParameterMap() {
        return QueryParameters.parse(exchange.getRequestURI().getRawQuery());
    }

    @Override
    public String getQueryString() {
        return exchange.getRequestURI().getRawQuery();
    }
}
