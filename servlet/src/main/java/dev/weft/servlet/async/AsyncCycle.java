package dev.weft.servlet.async;

import dev.weft.httpserver.Weft;
import dev.weft.servlet.context.WeftServletContext;
import dev.weft.servlet.request.AsyncHost;
import dev.weft.servlet.request.DispatchPath;
import dev.weft.servlet.request.WeftRequest;
import dev.weft.servlet.response.WeftResponse;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The asynchronous life of one request (Servlet 6.1 §2.3.3.3, figure 2-1), as a state machine:
 * <pre>
 *             startAsync                  dispatch returns
 * DISPATCHED ───────────► STARTED ─────────────────────────► WAITING ──timeout──► EXPIRING ─┐
 *     ▲                    │  dispatch()/complete()            │  dispatch()/complete()      │ onTimeout
 *     │                    ▼  (take effect when it returns)    ▼  (a new container thread)   ▼ unhandled:
 *     └──── DISPATCH ◄─ DISPATCH_REQUESTED / COMPLETE_REQUESTED ◄──────────────────────── error dispatch
 *                                          │ COMPLETE
 *                                          ▼
 *                               COMPLETING ──► COMPLETED (onComplete)
 * </pre>
 * A dispatch that throws while a cycle is involved goes through ERRORING ({@code onError}) the same way. Each
 * transition happens under one lock; listeners and the request's driver run with no lock held. Every method
 * returns the {@link Action} its caller must run next (the machine never runs application code itself while
 * deciding).
 */
public final class AsyncCycle implements AsyncHost {

    private static final System.Logger LOG = System.getLogger(AsyncCycle.class.getName());

    /** What the caller must do next. */
    public enum Action {
        /** Nothing: the request waits for the application (or its timeout). */
        WAIT,
        /** Run an ASYNC dispatch to {@link #target()}. */
        DISPATCH,
        /** Run an ERROR dispatch for {@link #error()} (status 500). */
        ERROR_DISPATCH,
        /** Complete the response. */
        COMPLETE
    }

    private enum State {
        DISPATCHED, STARTED, DISPATCH_REQUESTED, COMPLETE_REQUESTED, WAITING, EXPIRING, ERRORING, COMPLETING, COMPLETED
    }

    private record Registered(AsyncListener listener, ServletRequest request, ServletResponse response) {
    }

    private final WeftRequest request;
    private final WeftResponse response;
    private final WeftServletContext context;
    private final AsyncDriver driver;
    private final ReentrantLock lock = new ReentrantLock();
    private final List<Registered> listeners = new ArrayList<>();
    private State state = State.DISPATCHED;
    private boolean requestedInDispatch;
    private WeftAsyncContext current;
    private AsyncTimer timer;
    private AsyncTarget target;
    private Throwable error;
    private DispatchPath lastContainerDispatch;

    public AsyncCycle(WeftRequest request, WeftResponse response, WeftServletContext context, AsyncDriver driver) {
        this.request = request;
        this.response = response;
        this.context = context;
        this.driver = driver;
    }

    // ---- the driver's side

    /** A container dispatch (REQUEST, ASYNC or ERROR) to {@code path} begins on the calling thread. */
    public void beginDispatch(DispatchPath path) {
        lock.lock();
        try {
            state = State.DISPATCHED;
            requestedInDispatch = false;
            lastContainerDispatch = path;
        } finally {
            lock.unlock();
        }
    }

    /** The container dispatch returned normally: what now. */
    public Action afterDispatch() {
        lock.lock();
        try {
            switch (state) {
                case STARTED -> {
                    state = State.WAITING;
                    long timeout = current.getTimeout();
                    if (timeout > 0) {
                        timer = new AsyncTimer(timeout, this::expire);
                    }
                    return Action.WAIT;
                }
                case DISPATCH_REQUESTED -> {
                    requestedInDispatch = false;
                    return Action.DISPATCH;
                }
                default -> {
                    state = State.COMPLETING;
                    return Action.COMPLETE;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * The container dispatch threw {@code t}. With an asynchronous cycle involved ({@code startAsync} called, or
     * an ASYNC dispatch) the cycle's listeners hear {@code onError} first (§2.3.3.3 "dispatch error
     * handling"); true then, and the returned action says what follows. False when no cycle is involved: the
     * caller handles the error as for any request.
     */
    public boolean involved(boolean asyncDispatch) {
        lock.lock();
        try {
            return current != null && (asyncDispatch || state != State.DISPATCHED);
        } finally {
            lock.unlock();
        }
    }

    /** Runs {@code onError} for {@code t} and returns what follows (an error dispatch unless a listener acted). */
    public Action failed(Throwable t) {
        lock.lock();
        try {
            cancelTimer();
            state = State.ERRORING;
            error = t;
        } finally {
            lock.unlock();
        }
        fire(Event.ERROR, t);
        return afterListeners();
    }

    /** The request the current cycle was started with, for its ASYNC dispatch. */
    public ServletRequest dispatchRequest() {
        lock.lock();
        try {
            return current.suppliedRequest();
        } finally {
            lock.unlock();
        }
    }

    /** The response the current cycle was started with, for its ASYNC dispatch. */
    public ServletResponse dispatchResponse() {
        lock.lock();
        try {
            return current.suppliedResponse();
        } finally {
            lock.unlock();
        }
    }

    /** The pending dispatch's target. */
    public AsyncTarget target() {
        return target;
    }

    /** The throwable for an error dispatch, or null after a timeout. */
    public Throwable error() {
        return error;
    }

    /** The response was completed: {@code onComplete} to the last cycle's listeners. */
    public void completed() {
        lock.lock();
        try {
            state = State.COMPLETED;
            cancelTimer();
        } finally {
            lock.unlock();
        }
        fire(Event.COMPLETE, null);
    }

    // ---- the application's side (AsyncHost and AsyncContext)

    @Override
    public AsyncContext startAsync(ServletRequest req, ServletResponse res, boolean noArguments) {
        List<Registered> previous;
        WeftAsyncContext ctx;
        lock.lock();
        try {
            if (state != State.DISPATCHED) {
                throw new IllegalStateException(state == State.STARTED
                        ? "startAsync was called already in this dispatch"
                        : "startAsync is only possible while the container dispatches the request (state " + state + ")");
            }
            if (response.output().isClosed()) {
                throw new IllegalStateException("the response is closed");
            }
            boolean original = req == request && res == response;
            long timeout = current == null ? context.settings().asyncTimeoutMillis() : current.getTimeout();
            ctx = new WeftAsyncContext(this, req, res, original, noArguments, timeout);
            current = ctx;
            state = State.STARTED;
            previous = new ArrayList<>(listeners);
            listeners.clear();
            error = null;
            target = null;
        } finally {
            lock.unlock();
        }
        AsyncEvent event = new AsyncEvent(ctx, req, res);
        for (Registered r : previous) {
            context.runCallback(() -> r.listener().onStartAsync(event), "AsyncListener.onStartAsync");
        }
        return ctx;
    }

    @Override
    public boolean isAsyncStarted() {
        lock.lock();
        try {
            return switch (state) {
                case STARTED, WAITING, EXPIRING, ERRORING -> true;
                case DISPATCH_REQUESTED, COMPLETE_REQUESTED -> requestedInDispatch;
                default -> false;
            };
        } finally {
            lock.unlock();
        }
    }

    @Override
    public AsyncContext asyncContext() {
        lock.lock();
        try {
            if (current == null) {
                throw new IllegalStateException("the request was never put in asynchronous mode");
            }
            return current;
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@code ctx} is the current cycle and neither dispatched nor completed (for its getters). */
    boolean usable(WeftAsyncContext ctx) {
        lock.lock();
        try {
            return ctx == current && (state == State.STARTED || state == State.WAITING || state == State.EXPIRING
                    || state == State.ERRORING);
        } finally {
            lock.unlock();
        }
    }

    /** Whether listeners may be added and the timeout set: the dispatch that started the cycle still runs. */
    boolean configurable(WeftAsyncContext ctx) {
        lock.lock();
        try {
            return ctx == current && state == State.STARTED;
        } finally {
            lock.unlock();
        }
    }

    void addListener(WeftAsyncContext ctx, AsyncListener l, ServletRequest req, ServletResponse res) {
        lock.lock();
        try {
            // Until the dispatch that started the cycle returns, even after complete() or dispatch() was asked
            // for in it (on any thread): a filter may add its listener after the servlet returned.
            boolean open = switch (state) {
                case STARTED, EXPIRING, ERRORING -> true;
                case DISPATCH_REQUESTED, COMPLETE_REQUESTED -> requestedInDispatch;
                default -> false;
            };
            if (ctx != current || !open) {
                throw new IllegalStateException("listeners can only be added while the dispatch that started "
                        + "the asynchronous cycle runs");
            }
            listeners.add(new Registered(l, req, res));
        } finally {
            lock.unlock();
        }
    }

    /** {@code AsyncContext.dispatch}: to {@code to}, effective once no container dispatch runs. */
    void dispatch(WeftAsyncContext ctx, AsyncTarget to) {
        boolean resume;
        lock.lock();
        try {
            if (ctx != current) {
                throw new IllegalStateException("this AsyncContext belongs to an earlier asynchronous cycle");
            }
            resume = switch (state) {
                case STARTED, EXPIRING, ERRORING -> false;
                case WAITING -> true;
                default -> throw new IllegalStateException(
                        "dispatch is only possible once per asynchronous cycle, before complete (state " + state + ")");
            };
            requestedInDispatch = state == State.STARTED;
            state = State.DISPATCH_REQUESTED;
            target = to;
            cancelTimer();
        } finally {
            lock.unlock();
        }
        if (resume) {
            startContainerThread(Action.DISPATCH);
        }
    }

    /** {@code AsyncContext.complete}: effective once no container dispatch runs. */
    void complete(WeftAsyncContext ctx) {
        boolean resume;
        lock.lock();
        try {
            if (ctx != current && current != null) {
                return; // an earlier cycle's context: that cycle is over
            }
            switch (state) {
                case STARTED, EXPIRING, ERRORING -> resume = false;
                case WAITING -> resume = true;
                case COMPLETE_REQUESTED, COMPLETING, COMPLETED -> {
                    return;
                }
                case DISPATCH_REQUESTED -> throw new IllegalStateException("complete after dispatch in the same cycle");
                default -> throw new IllegalStateException("complete without startAsync");
            }
            requestedInDispatch = state == State.STARTED;
            state = State.COMPLETE_REQUESTED;
            cancelTimer();
        } finally {
            lock.unlock();
        }
        if (resume) {
            startContainerThread(Action.COMPLETE);
        }
    }

    /** Where the server runs application code: its platform threads, or a virtual thread per task. */
    private Executor applicationThreads() {
        return Weft.applicationExecutor(request.exchange().getHttpContext().getServer());
    }

    private void startContainerThread(Action action) {
        applicationThreads().execute(() -> {
            lock.lock();
            try {
                if (action == Action.COMPLETE) {
                    state = State.COMPLETING;
                }
            } finally {
                lock.unlock();
            }
            context.runCallback(() -> driver.run(action), "the asynchronous continuation of a request");
        });
    }

    /** The timeout fired (on the timer's thread). */
    private void expire() {
        lock.lock();
        try {
            if (state != State.WAITING) {
                return;
            }
            state = State.EXPIRING;
            timer = null;
        } finally {
            lock.unlock();
        }
        fire(Event.TIMEOUT, null);
        Action next = afterListeners();
        context.runCallback(() -> driver.run(next), "the timeout of an asynchronous request");
    }

    /** After onTimeout/onError: what a listener asked for, else an error dispatch (§2.3.3.3). */
    private Action afterListeners() {
        lock.lock();
        try {
            switch (state) {
                case DISPATCH_REQUESTED -> {
                    return Action.DISPATCH;
                }
                case COMPLETE_REQUESTED -> {
                    state = State.COMPLETING;
                    return Action.COMPLETE;
                }
                case COMPLETING, COMPLETED -> {
                    return Action.WAIT;
                }
                default -> {
                    state = State.DISPATCHED;
                    return Action.ERROR_DISPATCH;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel();
            timer = null;
        }
    }

    /** The path elements of the last container dispatch ({@code dispatch()} of a no-argument cycle). */
    DispatchPath lastContainerDispatch() {
        return lastContainerDispatch;
    }

    WeftServletContext context() {
        return context;
    }

    WeftRequest request() {
        return request;
    }

    /**
     * Runs {@code r} on a container thread (where the server runs application code) with the application's
     * context ({@code AsyncContext.start}).
     */
    void start(Runnable r) {
        applicationThreads().execute(() ->
                context.runCallback(r::run, "a task started with AsyncContext.start"));
    }

    private enum Event { COMPLETE, TIMEOUT, ERROR }

    private void fire(Event kind, Throwable t) {
        List<Registered> snapshot;
        WeftAsyncContext ctx;
        lock.lock();
        try {
            snapshot = new ArrayList<>(listeners);
            ctx = current;
        } finally {
            lock.unlock();
        }
        for (Registered r : snapshot) {
            AsyncEvent event = new AsyncEvent(ctx, r.request(), r.response(), t);
            try {
                context.runAsApplication(() -> {
                    switch (kind) {
                        case COMPLETE -> r.listener().onComplete(event);
                        case TIMEOUT -> r.listener().onTimeout(event);
                        case ERROR -> r.listener().onError(event);
                    }
                });
            } catch (IOException e) {
                LOG.log(Level.DEBUG, () -> "AsyncListener " + kind + " failed: " + e);
            } catch (Exception e) {
                LOG.log(Level.WARNING, "AsyncListener on" + kind + " threw", e);
            }
        }
    }
}
