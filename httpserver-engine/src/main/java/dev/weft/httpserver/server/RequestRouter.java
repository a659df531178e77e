package dev.weft.httpserver.server;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.core.ClientClosedException;
import dev.weft.httpserver.core.ExchangeDispatcher;
import dev.weft.httpserver.core.ExchangeTransport;
import dev.weft.httpserver.forwarded.OriginResolver;
import dev.weft.httpserver.stats.ServerStats;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * Finds the context of each exchange and runs its authenticator, filters and handler, inline on the
 * connection's thread or on the server's executor when one is set.
 */
final class RequestRouter implements ExchangeDispatcher {

    private static final System.Logger LOG = System.getLogger(RequestRouter.class.getName());
    private static final byte[] NOT_FOUND = "No context found for request\n".getBytes(StandardCharsets.US_ASCII);

    private final ContextRegistry contexts;
    private final ServerStats stats;
    private final Supplier<Executor> executor;
    private final WeftHttpContext notFoundContext;
    private final OriginResolver origins;

    RequestRouter(ContextRegistry contexts, ServerStats stats, Supplier<Executor> executor,
                  com.sun.net.httpserver.HttpServer server, OriginResolver origins) {
        this.origins = origins;
        this.contexts = contexts;
        this.stats = stats;
        this.executor = executor;
        this.notFoundContext = new WeftHttpContext("/", RequestRouter::notFound, server);
    }

    @Override
    public void dispatch(ExchangeTransport transport) {
        WeftHttpContext context = contexts.find(transport.routingPath());
        boolean found = context != null;
        Exchange exchange = new Exchange(transport, found ? context : notFoundContext, origins);
        // An HttpsExchange wherever the connection is TLS: the listener decides, not the server's type.
        HttpExchange api = transport.sslSession() != null ? new WeftHttpsExchange(exchange)
                : new WeftHttpExchange(exchange);
        Executor e = executor.get();
        if (e == null || found && context.inline()) {
            if (found) {
                runChain(exchange, api, context);
            } else {
                runHandler(exchange, api);
            }
            return;
        }
        try {
            e.execute(found ? () -> runChain(exchange, api, context) : () -> runHandler(exchange, api));
        } catch (HandlerPool.Stopping ex) {
            LOG.log(Level.DEBUG, () -> "not handling " + transport.method() + " " + transport.rawTarget()
                    + ": the server is stopping");
            transport.abort(ex);
        } catch (RejectedExecutionException ex) {
            LOG.log(Level.WARNING, "executor rejected an exchange", ex);
            transport.abort(ex);
        }
    }

    private void runHandler(Exchange exchange, HttpExchange api) {
        try {
            notFound(api);
        } catch (Throwable t) {
            handlerFailed(exchange.transport(), t);
        }
    }

    private void runChain(Exchange exchange, HttpExchange api, WeftHttpContext context) {
        try {
            HttpHandler handler = context.getHandler();
            if (handler == null) {
                throw new IllegalStateException("no handler for context " + context.getPath());
            }
            // As in the JDK: the user's filters, then the authenticator (a system filter), then the handler.
            Authenticator auth = context.getAuthenticator();
            HttpHandler guarded = auth == null ? handler : ex -> authenticate(exchange, ex, auth, handler);
            List<Filter> filters = context.getFilters();
            if (filters.isEmpty()) {
                guarded.handle(api);
            } else {
                new Filter.Chain(filters, guarded).doFilter(api);
            }
        } catch (Throwable t) {
            handlerFailed(exchange.transport(), t);
        }
    }

    /**
     * A handler threw. If the client broke the exchange first (reset, closed, malformed or stalled body), the
     * failure is the client's: {@code DEBUG}, already counted where it was detected; if a stop closed its
     * connection meanwhile, the failure is the stop's: {@code DEBUG}, counted as a stop close. Otherwise it is the
     * application's: a {@code WARNING} with the stack trace and a count. Either way the response is broken
     * off only if it is incomplete ({@link ExchangeTransport#abort}): a complete response stays complete and
     * its connection usable. The JVM's own errors (out of memory) go on up after that.
     */
    private void handlerFailed(ExchangeTransport transport, Throwable t) {
        if (t instanceof ClientClosedException || transport.clientFailed()) {
            LOG.log(Level.DEBUG, () -> "client broke off " + transport.method() + " " + transport.rawTarget()
                    + ": " + t);
        } else if (transport.closedByStop()) {
            // counted as a stop close where the stop closed the connection
            LOG.log(Level.DEBUG, () -> transport.method() + " " + transport.rawTarget()
                    + " cut short by the server stopping: " + t);
        } else {
            stats.handlerException();
            LOG.log(Level.WARNING, "handler for " + transport.method() + " " + transport.rawTarget() + " threw"
                    + (transport.responseStarted() ? " after it had sent the response head" : ""), t);
        }
        transport.abort(t);
        if (t instanceof VirtualMachineError err && !(t instanceof StackOverflowError)) {
            throw err;
        }
    }

    /** The JDK's authentication step, between the user's filters and the handler. */
    private static void authenticate(Exchange exchange, HttpExchange api, Authenticator auth, HttpHandler next)
            throws IOException {
        Authenticator.Result result = auth.authenticate(api);
        if (result instanceof Authenticator.Success s) {
            exchange.principal(s.getPrincipal());
            next.handle(api);
        } else if (result instanceof Authenticator.Retry r) {
            discardBody(api);
            api.sendResponseHeaders(r.getResponseCode(), -1);
        } else if (result instanceof Authenticator.Failure f) {
            discardBody(api);
            api.sendResponseHeaders(f.getResponseCode(), -1);
        } else {
            throw new IllegalStateException("authenticator returned " + result);
        }
    }

    private static void discardBody(HttpExchange api) throws IOException {
        InputStream in = api.getRequestBody();
        in.close();
    }

    private static void notFound(HttpExchange api) throws IOException {
        api.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        api.sendResponseHeaders(404, NOT_FOUND.length);
        try (var out = api.getResponseBody()) {
            out.write(NOT_FOUND);
        }
    }
}
