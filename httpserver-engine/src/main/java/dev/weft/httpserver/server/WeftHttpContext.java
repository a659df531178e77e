package dev.weft.httpserver.server;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** A context: a path prefix with its handler, filters, authenticator and attributes. */
final class WeftHttpContext extends HttpContext {

    private final String path;
    private final HttpServer server;
    private final List<Filter> filters = new CopyOnWriteArrayList<>();
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();
    private volatile HttpHandler handler;
    private volatile Authenticator authenticator;
    /** Whether the handler runs on the exchange's own thread even when the server has other threads for them. */
    private volatile boolean inline;

    WeftHttpContext(String path, HttpHandler handler, HttpServer server) {
        this.path = path;
        this.handler = handler;
        this.server = server;
    }

    void runInline() {
        inline = true;
    }

    boolean inline() {
        return inline;
    }

    @Override
    public HttpHandler getHandler() {
        return handler;
    }

    @Override
    public void setHandler(HttpHandler handler) {
        if (handler == null) {
            throw new NullPointerException("null handler parameter");
        }
        if (this.handler != null) {
            throw new IllegalArgumentException("handler already set");
        }
        this.handler = handler;
    }

    @Override
    public String getPath() {
        return path;
    }

    @Override
    public HttpServer getServer() {
        return server;
    }

    @Override
    public Map<String, Object> getAttributes() {
        return attributes;
    }

    @Override
    public List<Filter> getFilters() {
        return filters;
    }

    @Override
    public Authenticator setAuthenticator(Authenticator auth) {
        Authenticator old = authenticator;
        authenticator = auth;
        return old;
    }

    @Override
    public Authenticator getAuthenticator() {
        return authenticator;
    }
}
