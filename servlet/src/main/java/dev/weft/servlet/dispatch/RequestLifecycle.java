package dev.weft.servlet.dispatch;

import dev.weft.httpserver.Weft;
import dev.weft.servlet.async.AsyncCycle;
import dev.weft.servlet.async.AsyncCycle.Action;
import dev.weft.servlet.async.AsyncDriver;
import dev.weft.servlet.async.AsyncTarget;
import dev.weft.servlet.context.WeftServletContext;
import dev.weft.servlet.request.DispatchPath;
import dev.weft.servlet.request.RequestInputException;
import dev.weft.servlet.request.WeftRequest;
import dev.weft.servlet.response.WeftResponse;
import dev.weft.servlet.session.SessionLimitException;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.UnavailableException;

import java.io.IOException;
import java.lang.System.Logger.Level;

/**
 * Drives one exchange from its REQUEST dispatch to its completion (Servlet 6.1 §2.3.3.3, §10.9): runs each
 * container dispatch (REQUEST, ASYNC, ERROR) and whatever the {@link AsyncCycle} decides after it, turns an
 * exception or {@code sendError} into one error dispatch (never a second: a failing error page falls back on the
 * container's short error body), and completes the response: body finished, exchange closed,
 * {@code onComplete}, {@code requestDestroyed}, temporary files removed. A failure after the response was
 * committed cannot be answered: the exchange is broken off instead (by rethrowing to the engine when on its
 * thread).
 */
final class RequestLifecycle implements AsyncDriver {

    private static final System.Logger LOG = System.getLogger(RequestLifecycle.class.getName());

    private final ServletHandler host;
    private final WeftServletContext context;
    private final WeftRequest request;
    private final WeftResponse response;
    private final AsyncCycle cycle;
    private final DispatchPath original;
    private final String originalMethod;
    private Thread engineThread;
    private boolean errorDispatched;
    private Throwable failure;
    private Throwable aborted;
    private Throwable rethrow;

    RequestLifecycle(ServletHandler host, WeftRequest request, WeftResponse response) {
        this.host = host;
        this.context = host.context();
        this.request = request;
        this.response = response;
        this.original = request.dispatch();
        this.originalMethod = request.getMethod();
        this.cycle = new AsyncCycle(request, response, context, this);
        request.asyncHost(cycle);
    }

    /** Serves the exchange on the engine's thread; returns once the request completed or waits asynchronously. */
    void serve() throws IOException {
        engineThread = Thread.currentThread();
        cycle.beginDispatch(original);
        Action next;
        boolean initialized = false;
        try {
            if (context.listeners().hasRequestListeners()) {
                context.listeners().requestInitialized(context, request);
            }
            initialized = true;
        } catch (RuntimeException e) {
            markError(e, null);
        }
        next = initialized ? dispatch(original, request, response, false) : cycle.afterDispatch();
        run(next);
        engineThread = null;
        Throwable t = rethrow;
        if (t instanceof IOException io) {
            throw io;
        }
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error err) {
            throw err;
        }
        if (t != null) {
            throw new IOException(t);
        }
    }

    @Override
    public void run(Action action) {
        Action next = action;
        while (true) {
            switch (next) {
                case WAIT -> {
                    return;
                }
                case DISPATCH -> next = asyncDispatch(cycle.target());
                case ERROR_DISPATCH -> {
                    Throwable t = cycle.error();
                    markError(t, t == null ? "asynchronous processing timed out" : null);
                    next = Action.COMPLETE;
                }
                case COMPLETE -> {
                    if (response.isErrorPending() && !errorDispatched && aborted == null) {
                        next = errorDispatch();
                    } else {
                        complete();
                        return;
                    }
                }
            }
        }
    }

    /** Runs one container dispatch and says what follows. */
    private Action dispatch(DispatchPath path, ServletRequest req, ServletResponse res, boolean async) {
        request.asyncSupported(true);
        try {
            host.runner().run(path, false, request, req, res);
            return cycle.afterDispatch();
        } catch (Throwable t) {
            return failed(t, async);
        }
    }

    private Action asyncDispatch(AsyncTarget target) {
        DispatchPath path = target.earlier() != null ? target.earlier().as(DispatcherType.ASYNC)
                : host.resolver().resolve(target.path(), DispatcherType.ASYNC);
        if (path == null) {
            return failed(new IllegalStateException("async dispatch to a path outside the context: " + target.path()),
                    true);
        }
        if (request.getAttribute(AsyncContext.ASYNC_REQUEST_URI) == null) {
            request.setContainerAttribute(AsyncContext.ASYNC_REQUEST_URI, original.requestUri());
            request.setContainerAttribute(AsyncContext.ASYNC_CONTEXT_PATH, context.getContextPath());
            request.setContainerAttribute(AsyncContext.ASYNC_SERVLET_PATH, original.servletPath());
            request.setContainerAttribute(AsyncContext.ASYNC_PATH_INFO, original.pathInfo());
            request.setContainerAttribute(AsyncContext.ASYNC_QUERY_STRING, original.queryString());
            request.setContainerAttribute(AsyncContext.ASYNC_MAPPING, original.mapping());
        }
        request.dispatch(path);
        cycle.beginDispatch(path);
        ServletRequest req = cycle.dispatchRequest();
        ServletResponse res = cycle.dispatchResponse();
        boolean pushed = target.path() != null && path.queryString() != null;
        if (pushed) {
            request.pushParameters(path.queryString());
        }
        try {
            return dispatch(path, req, res, true);
        } finally {
            if (pushed) {
                request.popParameters();
            }
        }
    }

    /** A dispatch threw {@code t}: what follows. */
    private Action failed(Throwable t, boolean asyncDispatch) {
        if (request.clientFailed() || response.output().writeFailed()) {
            LOG.log(Level.DEBUG, () -> "client broke off " + originalMethod + " " + original.requestUri() + ": " + t);
            aborted = t;
            return Action.COMPLETE;
        }
        if (cycle.involved(asyncDispatch)) {
            logFailure(t);
            return cycle.failed(t);
        }
        markError(t, null);
        return cycle.afterDispatch();
    }

    /** Records {@code t} (or a plain error when null) as the request's error, to answer with its status. */
    private void markError(Throwable t, String message) {
        int status = t == null ? 500 : statusFor(t);
        if (t instanceof UnavailableException u && !u.isPermanent() && !response.isCommitted()) {
            response.setHeader("Retry-After", String.valueOf(Math.max(1, u.getUnavailableSeconds())));
        }
        boolean answered = response.containerError(status, message);
        if (t != null && failure == null && (answered || Thread.currentThread() != engineThread)) {
            logFailure(t); // on the engine's thread an unanswerable failure is rethrown, and the engine logs it
        }
        failure = t != null ? t : failure;
        if (!answered) {
            aborted = t != null ? t : new IOException("the response was committed before an error: " + message);
        }
    }

    private void logFailure(Throwable t) {
        if (statusFor(t) < 500) {
            LOG.log(Level.DEBUG, () -> "rejected " + originalMethod + " " + original.requestUri() + ": " + t);
        } else if (Weft.isCutShort(request.exchange())) {
            // The client went away or broke its request, or a stop closed the connection: counted by the engine.
            LOG.log(Level.DEBUG, () -> originalMethod + " " + original.requestUri() + " cut short: " + t);
        } else {
            LOG.log(Level.WARNING, originalMethod + " " + original.requestUri() + " failed", t);
        }
    }

    /** The status an exception is answered with: a client's 4xx, 503/404 for unavailability, else 500. */
    static int statusFor(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof RequestInputException r) {
                return r.status();
            }
            if (c instanceof SessionLimitException) {
                return 503;
            }
        }
        if (ErrorAttributes.rootCause(t) instanceof UnavailableException ue) {
            return ue.isPermanent() ? 404 : 503;
        }
        return 500;
    }

    /**
     * The error dispatch to the matching error page (§10.9.1): the page of the failure's type, else of the status,
     * else the default page; else the container's error body.
     */
    private Action errorDispatch() {
        errorDispatched = true;
        int status = response.getStatus();
        String message = response.errorMessage();
        String byType = failure != null ? host.errorPages().forExceptionType(failure) : null;
        String location = byType != null ? byType : host.errorPages().forStatus(status);
        DispatchPath page = location == null ? null : host.resolver().resolve(location, DispatcherType.ERROR);
        if (page == null) {
            writeErrorBody(status, message);
            return Action.COMPLETE;
        }
        DispatchPath at = request.dispatch();
        ErrorAttributes.set(request, at, originalMethod, status, failure, byType != null, message);
        if (request.getAttribute(RequestDispatcher.FORWARD_REQUEST_URI) == null) {
            WeftDispatcher.setPathAttributes(request, new String[] {RequestDispatcher.FORWARD_REQUEST_URI,
                RequestDispatcher.FORWARD_CONTEXT_PATH, RequestDispatcher.FORWARD_SERVLET_PATH,
                RequestDispatcher.FORWARD_PATH_INFO, RequestDispatcher.FORWARD_QUERY_STRING,
                RequestDispatcher.FORWARD_MAPPING}, at);
        }
        response.beginErrorPage();
        request.dispatch(page);
        cycle.beginDispatch(page);
        request.asyncSupported(true);
        try {
            host.runner().run(page, false, request, request, response);
        } catch (Throwable t) {
            if (statusFor(t) < 500) {
                // the page read the same malformed input that caused the error (Spring's /error reads parameters)
                LOG.log(Level.DEBUG, () -> "the error page " + location + " rejected the request's input: " + t);
            } else {
                LOG.log(Level.WARNING, "the error page " + location + " failed", t);
            }
            if (!response.isCommitted()) {
                writeErrorBody(status, message);
            }
        }
        return cycle.afterDispatch();
    }

    /** Sends the 101 and gives the connection to the upgrade handler; it closes the exchange when done. */
    private void upgrade() {
        try {
            response.finish();
            request.startUpgrade();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "starting the protocol upgrade of " + original.requestUri() + " failed", e);
            request.exchange().close();
        }
    }

    private void writeErrorBody(int status, String message) {
        try {
            ErrorBody.write(response, status, message, failure, host.showStackTraces());
        } catch (IOException e) {
            LOG.log(Level.DEBUG, () -> "could not write the error body: " + e);
        }
    }

    /** Finishes the response and the exchange, then the completion events. */
    private void complete() {
        try {
            if (request.exchangeTakenOver()) {
                // the engine's WebSocket layer owns the exchange now (EngineExchange.takeOver)
            } else if (aborted != null) {
                if (Thread.currentThread() == engineThread) {
                    rethrow = aborted; // the engine breaks the exchange off
                } else {
                    request.exchange().close();
                }
            } else if (request.upgradeHandler() != null && !response.isErrorPending()
                    && response.getStatus() == 101) {
                upgrade();
            } else {
                if (response.isErrorPending()) {
                    writeErrorBody(response.getStatus(), response.errorMessage());
                }
                request.releaseUploads();
                try {
                    response.finish();
                } catch (IOException e) {
                    LOG.log(Level.DEBUG, () -> "client went away before the response was sent: " + e);
                }
                request.exchange().close();
            }
        } finally {
            cycle.completed();
            context.listeners().requestDestroyed(context, request);
            request.recycle();
        }
    }
}
