package dev.weft.servlet.async;

import dev.weft.servlet.mapping.PathCanonicalizer;
import dev.weft.servlet.mapping.SuspiciousPathException;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;

import java.util.Objects;

/**
 * One asynchronous cycle's {@link AsyncContext}; the state lives in the request's {@link AsyncCycle}.
 */
final class WeftAsyncContext implements AsyncContext {

    private final AsyncCycle cycle;
    private final ServletRequest request;
    private final ServletResponse response;
    private final boolean original;
    private final boolean noArguments;
    /** For {@code startAsync(request, response)}: where {@code dispatch()} goes, fixed when the cycle starts. */
    private final AsyncTarget explicitTarget;
    private volatile long timeout;

    WeftAsyncContext(AsyncCycle cycle, ServletRequest request, ServletResponse response, boolean original,
                     boolean noArguments, long timeout) {
        this.cycle = cycle;
        this.request = request;
        this.response = response;
        this.original = original;
        this.noArguments = noArguments;
        this.timeout = timeout;
        if (noArguments) {
            explicitTarget = null;
        } else if (request == cycle.request() || !(request instanceof HttpServletRequest)) {
            explicitTarget = new AsyncTarget(cycle.request().dispatch(), null);
        } else {
            explicitTarget = new AsyncTarget(null, contextRelative((HttpServletRequest) request));
        }
    }

    @Override
    public ServletRequest getRequest() {
        if (!cycle.usable(this)) {
            throw new IllegalStateException("the asynchronous cycle was dispatched or completed");
        }
        return request;
    }

    @Override
    public ServletResponse getResponse() {
        if (!cycle.usable(this)) {
            throw new IllegalStateException("the asynchronous cycle was dispatched or completed");
        }
        return response;
    }

    ServletRequest suppliedRequest() {
        return request;
    }

    ServletResponse suppliedResponse() {
        return response;
    }

    @Override
    public boolean hasOriginalRequestAndResponse() {
        return original;
    }

    /**
     * Back to where the cycle came from (§2.3.3.3): for {@code startAsync()} the last container dispatch; for
     * {@code startAsync(request, response)} the URI that request showed when the cycle started.
     */
    @Override
    public void dispatch() {
        cycle.dispatch(this, noArguments ? new AsyncTarget(cycle.lastContainerDispatch(), null) : explicitTarget);
    }

    private String contextRelative(HttpServletRequest http) {
        // the URI is encoded: decoded and checked the way a request's path is
        String uri = http.getRequestURI();
        String cp = cycle.context().getContextPath();
        String raw = uri.startsWith(cp) ? uri.substring(cp.length()) : uri;
        try {
            String path = PathCanonicalizer.canonicalize(raw.isEmpty() ? "/" : raw);
            String query = http.getQueryString();
            return query == null ? path : path + "?" + query;
        } catch (SuspiciousPathException e) {
            throw new IllegalStateException("cannot dispatch to " + uri + ": " + e.getMessage());
        }
    }

    @Override
    public void dispatch(String path) {
        dispatch(cycle.context(), path);
    }

    @Override
    public void dispatch(ServletContext context, String path) {
        Objects.requireNonNull(path, "path");
        if (context != cycle.context()) {
            throw new IllegalArgumentException("the container runs one servlet context: cannot dispatch to another");
        }
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("dispatch path must start with /: " + path);
        }
        cycle.dispatch(this, new AsyncTarget(null, path));
    }

    @Override
    public void complete() {
        cycle.complete(this);
    }

    @Override
    public void start(Runnable run) {
        Objects.requireNonNull(run, "task");
        cycle.start(run);
    }

    @Override
    public void addListener(AsyncListener listener) {
        addListener(listener, request, response);
    }

    @Override
    public void addListener(AsyncListener listener, ServletRequest servletRequest, ServletResponse servletResponse) {
        Objects.requireNonNull(listener, "listener");
        cycle.addListener(this, listener, servletRequest, servletResponse);
    }

    @Override
    public <T extends AsyncListener> T createListener(Class<T> clazz) throws ServletException {
        try {
            return clazz.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new ServletException("cannot instantiate " + clazz.getName(), e);
        }
    }

    @Override
    public void setTimeout(long timeout) {
        if (!cycle.configurable(this)) {
            throw new IllegalStateException("the timeout can only be set while the dispatch that started the "
                    + "asynchronous cycle runs");
        }
        this.timeout = timeout;
    }

    @Override
    public long getTimeout() {
        return timeout;
    }
}
