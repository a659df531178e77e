package dev.weft.httpserver.proxy;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;

/**
 * What a JDK {@link com.sun.net.httpserver.Authenticator} sees of a proxy request: {@code Proxy-Authorization}
 * presented as {@code Authorization}, and a response-header map of its own from which the handler turns a
 * {@code WWW-Authenticate} challenge into {@code Proxy-Authenticate}. It cannot send a response. Used on the
 * handler's thread during one {@code authenticate} call.
 */
final class ProxyAuthExchange extends HttpExchange {

    private final HttpExchange exchange;
    private final Headers requestHeaders = new Headers();
    private final Headers challenge = new Headers();

    ProxyAuthExchange(HttpExchange exchange) {
        this.exchange = exchange;
        exchange.getRequestHeaders().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("Authorization") && !name.equalsIgnoreCase("Proxy-authorization")) {
                requestHeaders.put(name, values);
            }
        });
        var credentials = exchange.getRequestHeaders().get("Proxy-Authorization");
        if (credentials != null) {
            requestHeaders.put("Authorization", credentials);
        }
    }

    /** The fields the authenticator set, e.g. its {@code WWW-Authenticate} challenge. */
    Headers challenge() {
        return challenge;
    }

    @Override
    public Headers getRequestHeaders() {
        return requestHeaders;
    }

    @Override
    public Headers getResponseHeaders() {
        return challenge;
    }

    @Override
    public URI getRequestURI() {
        return exchange.getRequestURI();
    }

    @Override
    public String getRequestMethod() {
        return exchange.getRequestMethod();
    }

    @Override
    public HttpContext getHttpContext() {
        return exchange.getHttpContext();
    }

    @Override
    public void close() {
        throw new IllegalStateException("an authenticator cannot close a proxy exchange");
    }

    @Override
    public InputStream getRequestBody() {
        return InputStream.nullInputStream();
    }

    @Override
    public OutputStream getResponseBody() {
        throw new IllegalStateException("an authenticator cannot answer a proxy exchange itself");
    }

    @Override
    public void sendResponseHeaders(int rCode, long responseLength) {
        throw new IllegalStateException("an authenticator cannot answer a proxy exchange itself");
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return exchange.getRemoteAddress();
    }

    @Override
    public int getResponseCode() {
        return -1;
    }

    @Override
    public InetSocketAddress getLocalAddress() {
        return exchange.getLocalAddress();
    }

    @Override
    public String getProtocol() {
        return exchange.getProtocol();
    }

    @Override
    public Object getAttribute(String name) {
        return exchange.getAttribute(name);
    }

    @Override
    public void setAttribute(String name, Object value) {
        exchange.setAttribute(name, value);
    }

    @Override
    public void setStreams(InputStream i, OutputStream o) {
        throw new IllegalStateException("an authenticator cannot replace a proxy exchange's streams");
    }

    @Override
    public HttpPrincipal getPrincipal() {
        return null;
    }
}
