package dev.weft.servlet.dispatch;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.websocket.WebSocketHandler;
import dev.weft.servlet.context.ContextPhase;
import dev.weft.servlet.context.WeftServletContext;
import dev.weft.servlet.mapping.PathCanonicalizer;
import dev.weft.servlet.mapping.SuspiciousPathException;
import dev.weft.servlet.request.DispatchPath;
import dev.weft.servlet.request.WeftRequest;
import dev.weft.servlet.response.WeftResponse;
import jakarta.servlet.DispatcherType;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The container as an engine {@link HttpHandler}, mounted on the server's root context: refuses requests while
 * the context is not started (503) and {@code CONNECT} (501, §2.1.3) other than
 * a WebSocket's extended {@code CONNECT} (RFC 8441); canonicalizes the raw path once
 * ({@link PathCanonicalizer}, 400 for a suspicious path); finds the path within the context path (404 outside it,
 * a redirect from the bare context path to its {@code /}); maps it and hands the exchange to a
 * {@link RequestLifecycle}. Thread-safe; one call per exchange on the engine's thread.
 */
public final class ServletHandler implements HttpHandler {

    private static final System.Logger LOG = System.getLogger(ServletHandler.class.getName());

    private final WeftServletContext context;
    private final ErrorPages errorPages;
    private final boolean showStackTraces;
    private final ChainRunner runner;
    private final PathResolver resolver;
    private final AtomicLong requestIds = new AtomicLong();

    /**
     * @param errorPages      the error pages, in declaration order
     * @param showStackTraces whether the container's own error body shows the exception's stack trace
     */
    public ServletHandler(WeftServletContext context, List<ErrorPageEntry> errorPages, boolean showStackTraces) {
        this.context = context;
        this.errorPages = new ErrorPages(errorPages);
        this.showStackTraces = showStackTraces;
        this.runner = new ChainRunner(context);
        this.resolver = new PathResolver(context);
        context.dispatchers(new DispatcherFactory(context, runner, resolver));
    }

    WeftServletContext context() {
        return context;
    }

    ChainRunner runner() {
        return runner;
    }

    PathResolver resolver() {
        return resolver;
    }

    ErrorPages errorPages() {
        return errorPages;
    }

    boolean showStackTraces() {
        return showStackTraces;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        if (context.phase() != ContextPhase.STARTED) {
            plain(exchange, 503, "The servlet container is not started.");
            return;
        }
        if (exchange.getRequestMethod().equals("CONNECT") && !WebSocketHandler.isUpgradeRequest(exchange)) {
            // an extended CONNECT (RFC 8441) opens a WebSocket over HTTP/2 and goes on to the filters
            plain(exchange, 501, "CONNECT is not supported.");
            return;
        }
        URI uri = exchange.getRequestURI();
        String rawPath = uri.getRawPath();
        if (rawPath == null || rawPath.isEmpty()) {
            if (exchange.getRequestMethod().equals("OPTIONS") && "*".equals(uri.toString())) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD, POST, PUT, DELETE, OPTIONS, TRACE, PATCH");
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
                return;
            }
            plain(exchange, 400, "Bad request target.");
            return;
        }
        String canonical;
        try {
            canonical = PathCanonicalizer.canonicalize(rawPath);
        } catch (SuspiciousPathException e) {
            LOG.log(Level.DEBUG, () -> "rejected path " + rawPath + ": " + e.getMessage());
            plain(exchange, 400, "Bad request path.");
            return;
        }
        String contextPath = context.getContextPath();
        String path = canonical;
        if (!contextPath.isEmpty()) {
            if (canonical.equals(contextPath)) {
                if (!context.registrations().hasContextRootMapping()) {
                    String query = uri.getRawQuery();
                    exchange.getResponseHeaders().set("Location", rawPath + "/" + (query == null ? "" : "?" + query));
                    exchange.sendResponseHeaders(302, -1);
                    exchange.close();
                    return;
                }
                path = "/";
            } else if (canonical.startsWith(contextPath + "/")) {
                path = canonical.substring(contextPath.length());
            } else {
                plain(exchange, 404, "Not found.");
                return;
            }
        }
        DispatchPath first = resolver.toDispatch(path, rawPath, uri.getRawQuery(), DispatcherType.REQUEST);
        WeftResponse response = new WeftResponse(exchange, context);
        WeftRequest request = new WeftRequest(exchange, context, response, rawPath, first,
                Long.toString(requestIds.incrementAndGet()));
        RequestLifecycle lifecycle = new RequestLifecycle(this, request, response);
        try {
            context.runAsApplication(lifecycle::serve);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    private static void plain(HttpExchange exchange, int status, String text) throws IOException {
        byte[] body = (text + "\n").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain;charset=utf-8");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
