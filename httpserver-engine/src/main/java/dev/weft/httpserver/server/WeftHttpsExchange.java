package dev.weft.httpserver.server;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpPrincipal;

import javax.net.ssl.SSLSession;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;

/** The {@code HttpsExchange} handlers receive; delegates to the protocol-neutral {@link Exchange}. */
final class WeftHttpsExchange extends HttpsExchange {

    private final Exchange exchange;

    WeftHttpsExchange(Exchange exchange) {
        this.exchange = exchange;
    }

    Exchange exchange() {
        return exchange;
    }

    @Override
    public Headers getRequestHeaders() {
        return exchange.requestHeaders();
    }

    @Override
    public Headers getResponseHeaders() {
        return exchange.responseHeaders();
    }

    @Override
    public URI getRequestURI() {
        return exchange.transport().requestUri();
    }

    @Override
    public String getRequestMethod() {
        return exchange.transport().method();
    }

    @Override
    public HttpContext getHttpContext() {
        return exchange.context();
    }

    @Override
    public void close() {
        exchange.close();
    }

    @Override
    public InputStream getRequestBody() {
        return exchange.requestBody();
    }

    @Override
    public OutputStream getResponseBody() {
        return exchange.responseBody();
    }

    @Override
    public void sendResponseHeaders(int rCode, long responseLength) throws IOException {
        exchange.sendResponseHeaders(rCode, responseLength);
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return exchange.origin().remoteAddress();
    }

    @Override
    public int getResponseCode() {
        return exchange.responseCode();
    }

    @Override
    public InetSocketAddress getLocalAddress() {
        return exchange.transport().localAddress();
    }

    @Override
    public String getProtocol() {
        return exchange.transport().protocol();
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
        exchange.setStreams(i, o);
    }

    @Override
    public HttpPrincipal getPrincipal() {
        return exchange.principal();
    }

    @Override
    public SSLSession getSSLSession() {
        return exchange.transport().sslSession();
    }
}
