package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import dev.weft.httpserver.config.Listener;
import dev.weft.httpserver.accesslog.AccessLog;
import dev.weft.httpserver.accesslog.LogPattern;
import dev.weft.httpserver.accesslog.Rotation;
import dev.weft.httpserver.config.AccessLogConfig;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.ConnectionRegistry;
import dev.weft.httpserver.forwarded.OriginResolver;
import dev.weft.httpserver.stats.ServerStats;
import dev.weft.httpserver.stats.StatsHandler;
import dev.weft.httpserver.stats.StatsSnapshot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.List;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * What {@link WeftHttpServer} and {@link WeftHttpsServer} share: the listeners ({@link ListenerSet}), lifecycle
 * ({@code bind → start → stop}), contexts, executor, connections and statistics of one server.
 */
final class ServerRuntime {

    private static final System.Logger LOG = System.getLogger(ServerRuntime.class.getName());

    private enum State { NEW, BOUND, STARTED, STOPPING, STOPPED }

    private final ServerConfig config;
    private final ServerStats stats = new ServerStats();
    /** The access log, or null when it is off. */
    private final AccessLog accessLog;
    private final ContextRegistry contexts = new ContextRegistry();
    private final ConnectionRegistry connections;
    private final RequestRouter router;
    private final HttpServer owner;
    /** The TLS configuration of the listener {@link #bind} binds, or null for cleartext. */
    private final Supplier<HttpsConfigurator> ownTls;
    private final ReentrantLock lock = new ReentrantLock();
    private State state = State.NEW;
    private final ListenerSet listeners = new ListenerSet();
    /** The executor set through the JDK API, or null. */
    private volatile Executor executor;
    /** The platform threads handlers run on when threads.virtual is off and no executor is set; or null. */
    private volatile HandlerPool pool;
    /** Whether a stop had to close connections with exchanges still in flight. */
    private volatile boolean forced;
    /** Actions of {@link #whenStopping}; run once by the first stop. */
    private final Set<Runnable> stopActions = ConcurrentHashMap.newKeySet();
    /** Graceful shutdowns not reported yet. */
    private final Queue<CompletableFuture<Boolean>> gracefulShutdowns = new ConcurrentLinkedQueue<>();
    private volatile boolean stopping;

    /** @param ownTls the TLS configuration of the listener {@link #bind} binds, or null for cleartext */
    ServerRuntime(ServerConfig config, HttpServer owner, Supplier<HttpsConfigurator> ownTls) {
        this.config = Objects.requireNonNull(config, "config");
        this.owner = owner;
        this.ownTls = ownTls;
        this.accessLog = accessLog(config.accessLog(), stats);
        this.connections = new ConnectionRegistry(config, stats, accessLog);
        this.router = new RequestRouter(contexts, stats, this::handlerExecutor, owner,
                new OriginResolver(config.forwarded(), stats));
        if (config.statsPath() != null) {
            contexts.create(config.statsPath(), new StatsHandler(stats::snapshot), owner);
        }
    }

    private static AccessLog accessLog(AccessLogConfig c, ServerStats stats) {
        if (!c.enabled()) {
            return null;
        }
        return new AccessLog(LogPattern.compile(c.pattern()), c.file() == null ? null : Path.of(c.file()),
                new Rotation(c.rotateDaily(), c.maxFileSize(), c.maxFiles()), c.queueCapacity(), c.flushInterval(),
                stats::accessLogLinesDropped);
    }

    ServerConfig config() {
        return config;
    }

    ServerStats stats() {
        return stats;
    }

    StatsSnapshot snapshot() {
        return stats.snapshot();
    }

    /** The JDK's {@code bind}: the server's first listener, cleartext or TLS as the server is. */
    void bind(InetSocketAddress address, int backlog) throws IOException {
        Objects.requireNonNull(address, "null address");
        boolean http2 = ownTls != null ? config.http2().h2Enabled() : config.http2().h2cEnabled();
        bindAll(List.of(new BoundListener.Endpoint(address, backlog, ownTls, http2, config.forwarded().proxyProtocol())),
                true);
    }

    /** See {@link WeftServer#addListeners}. */
    void addListeners(List<Listener> added) throws IOException {
        bindAll(added.stream().map(l -> BoundListener.Endpoint.of(l, config)).toList(), false);
    }

    private void bindAll(List<BoundListener.Endpoint> endpoints, boolean byJdkBind) throws IOException {
        lock.lock();
        try {
            if (byJdkBind && state != State.NEW) {
                throw new BindException("HttpServer already bound");
            } else if (state != State.NEW && state != State.BOUND) {
                throw new IllegalStateException("listeners are added before the server starts; it is " + state);
            }
            listeners.bindAll(endpoints, config, stats);
            stats.serverName(listeners.names());
            state = State.BOUND;
        } finally {
            lock.unlock();
        }
    }

    void start() {
        lock.lock();
        try {
            if (state != State.BOUND) {
                throw new IllegalStateException("server in wrong state: " + state);
            }
            int port = listeners.firstAddress().getPort();
            if (accessLog != null) {
                try {
                    accessLog.start("weft-access-log-" + port);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot open the access log: " + e.getMessage(), e);
                }
            }
            if (executor == null && !config.threads().virtual()) {
                pool = new HandlerPool(config.threads(), "weft-handler-" + port);
            }
            connections.start("weft-" + port);
            listeners.startAll(config, connections, stats, router);
            state = State.STARTED;
        } finally {
            lock.unlock();
        }
    }

    void setExecutor(Executor executor) {
        lock.lock();
        try {
            if (state == State.STARTED) {
                throw new IllegalStateException("server already started");
            }
            this.executor = executor;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The executor handlers run on, as the JDK's server answers: the one set, else the server's platform
     * threads once started with {@code threads.virtual} off, else one that runs each handler where it is
     * given, on the connection's thread.
     */
    Executor getExecutor() {
        Executor e = handlerExecutor();
        return e != null ? e : INLINE;
    }

    /** See {@link dev.weft.httpserver.Weft#applicationExecutor}. */
    Executor applicationExecutor() {
        Executor e = handlerExecutor();
        return e != null ? e : VIRTUAL;
    }

    /** Starts each task on a virtual thread of its own. */
    private static final Executor VIRTUAL = new Executor() {
        private final java.util.concurrent.ThreadFactory threads = Thread.ofVirtual().name("weft-task").factory();

        @Override
        public void execute(Runnable task) {
            threads.newThread(task).start();
        }

        @Override
        public String toString() {
            return "Weft: a virtual thread per task";
        }
    };

    /** Where handlers are handed to, or null to run them inline on the connection's (or stream's) thread. */
    private Executor handlerExecutor() {
        Executor e = executor;
        return e != null ? e : pool;
    }

    /** Runs each handler on the calling connection's (or HTTP/2 stream's) own virtual thread. */
    private static final Executor INLINE = new Executor() {
        @Override
        public void execute(Runnable task) {
            task.run();
        }

        @Override
        public String toString() {
            return "Weft: handlers run on the connection's virtual thread";
        }
    };

    /**
     * The JDK's {@code stop(delay)}: stop accepting, close idle connections, wait up to {@code delay} seconds
     * for in-flight exchanges, then close everything. Also ends a pending {@link #shutdownGracefully()}.
     */
    void stop(int delaySeconds) {
        if (delaySeconds < 0) {
            throw new IllegalArgumentException("negative delay parameter");
        }
        if (!beginStop()) {
            return;
        }
        try {
            if (!connections.awaitDrained(TimeUnit.SECONDS.toNanos(delaySeconds))) {
                forced = true;
            }
        } catch (InterruptedException e) {
            forced = true;
            Thread.currentThread().interrupt();
        } finally {
            finishStop();
            // A graceful shutdown this stop cut short learns it now, whether or not its handlers have ended.
            reportGracefulShutdowns();
        }
    }

    /**
     * Stops accepting and closes idle connections at once, then completes the returned future with
     * {@code true} once every in-flight exchange has finished, or {@code false} if {@link #stop(int)} had to
     * close connections first.
     */
    CompletableFuture<Boolean> shutdownGracefully() {
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        if (!beginStop()) {
            done.complete(!forced);
            return done;
        }
        gracefulShutdowns.add(done);
        // A platform thread: it must see the drain through even when every carrier of virtual threads is held.
        Thread.ofPlatform().daemon(true).name("weft-graceful-shutdown").start(() -> {
            try {
                while (!connections.awaitDrained(TimeUnit.MILLISECONDS.toNanos(100))) {
                    if (done.isDone()) {
                        return; // stop() cut it short and reported
                    }
                }
                finishStop();
                reportGracefulShutdowns();
            } catch (InterruptedException e) {
                done.complete(false);
            }
        });
        return done;
    }

    /** Completes every pending graceful shutdown: {@code true} if every exchange could finish. */
    private void reportGracefulShutdowns() {
        for (CompletableFuture<Boolean> f; (f = gracefulShutdowns.poll()) != null; ) {
            f.complete(!forced);
        }
    }

    /** See {@link WeftServer#whenStopping}. */
    Runnable whenStopping(Runnable action) {
        Objects.requireNonNull(action, "action");
        stopActions.add(action);
        if (stopping && stopActions.remove(action)) {
            action.run();
        }
        return () -> stopActions.remove(action);
    }

    /** Runs the registered stop actions once each; an action that throws does not stop the others. */
    private void runStopActions() {
        stopping = true;
        for (Runnable action : stopActions) {
            if (stopActions.remove(action)) {
                try {
                    action.run();
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "stop action failed", e);
                }
            }
        }
    }

    /**
     * Moves to STOPPED and starts draining.
     *
     * @return whether connections may still be draining (false if the server never started or is stopped)
     */
    private boolean beginStop() {
        lock.lock();
        try {
            switch (state) {
                case STARTED -> {
                    state = State.STOPPING;
                    listeners.closeAll();
                    connections.beginDrain();
                    runStopActions();
                    return true;
                }
                case STOPPING -> {
                    return true;
                }
                case NEW, BOUND -> {
                    state = State.STOPPED;
                    listeners.closeAll();
                    return false;
                }
                default -> {
                    return false;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Closes whatever is left and waits for the accept loop to end; idempotent. */
    private void finishStop() {
        connections.closeAll();
        if (accessLog != null) {
            accessLog.close(); // after the last exchange: every line written, the file closed
        }
        HandlerPool p = pool;
        if (p != null) {
            p.shutdownNow();
        }
        lock.lock();
        try {
            state = State.STOPPED;
        } finally {
            lock.unlock();
        }
        try {
            listeners.awaitAcceptorsEnd(TimeUnit.SECONDS.toNanos(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The first listener's address, or null before one is bound. */
    InetSocketAddress address() {
        lock.lock();
        try {
            return listeners.firstAddress();
        } finally {
            lock.unlock();
        }
    }

    HttpContext createContext(String path, HttpHandler handler) {
        return contexts.create(path, handler, owner);
    }

    void removeContext(String path) {
        contexts.remove(path);
    }

    void removeContext(HttpContext context) {
        contexts.remove(context);
    }
}
