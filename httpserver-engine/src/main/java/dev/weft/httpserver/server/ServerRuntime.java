package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.accesslog.AccessLog;
import dev.weft.httpserver.accesslog.LogPattern;
import dev.weft.httpserver.accesslog.Rotation;
import dev.weft.httpserver.config.AccessLogConfig;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.Acceptor;
import dev.weft.httpserver.core.ConnectionRegistry;
import dev.weft.httpserver.core.TransportSecurity;
import dev.weft.httpserver.stats.ServerStats;
import dev.weft.httpserver.stats.StatsHandler;
import dev.weft.httpserver.stats.StatsSnapshot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What {@link WeftHttpServer} and {@link WeftHttpsServer} share: the listening socket, lifecycle
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
    private final boolean https;
    private final ReentrantLock lock = new ReentrantLock();
    private State state = State.NEW;
    private ServerSocket listener;
    private Thread acceptorThread;
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

    ServerRuntime(ServerConfig config, HttpServer owner, boolean https) {
        this.config = Objects.requireNonNull(config, "config");
        this.owner = owner;
        this.https = https;
        this.accessLog = accessLog(config.accessLog(), stats);
        this.connections = new ConnectionRegistry(config, stats, accessLog);
        this.router = new RequestRouter(contexts, stats, this::handlerExecutor, https, owner);
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
                stats::accessLogLineDropped);
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

    void bind(InetSocketAddress address, int backlog) throws IOException {
        Objects.requireNonNull(address, "null address");
        lock.lock();
        try {
            if (state != State.NEW) {
                throw new BindException("HttpServer already bound");
            }
            // Cleartext connections are accepted through a channel, so that each socket has one: file regions go
            // from the file to it without copying (FileChannel.transferTo). The sockets are still used in blocking
            // mode, through their streams. TLS has no use for the channel: its bytes are encrypted on the heap.
            ServerSocket s = https ? new ServerSocket() : ServerSocketChannel.open().socket();
            try {
                s.setReuseAddress(true);
                s.bind(address, backlog > 0 ? backlog : config.backlog());
            } catch (IOException e) {
                s.close();
                throw e;
            }
            listener = s;
            InetSocketAddress bound = (InetSocketAddress) s.getLocalSocketAddress();
            stats.serverName((owner instanceof com.sun.net.httpserver.HttpsServer ? "https://" : "http://")
                    + bound.getHostString() + ":" + bound.getPort());
            state = State.BOUND;
        } finally {
            lock.unlock();
        }
    }

    void start(TransportSecurity security) {
        lock.lock();
        try {
            if (state != State.BOUND) {
                throw new IllegalStateException("server in wrong state: " + state);
            }
            if (accessLog != null) {
                try {
                    accessLog.start("weft-access-log-" + listener.getLocalPort());
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot open the access log: " + e.getMessage(), e);
                }
            }
            if (executor == null && !config.threads().virtual()) {
                pool = new HandlerPool(config.threads(), "weft-handler-" + listener.getLocalPort());
            }
            connections.start("weft-" + listener.getLocalPort());
            Acceptor acceptor = new Acceptor(listener, connections, stats, security,
                    new ProtocolSelector(router, config.http2()));
            acceptorThread = acceptor.start();
            state = State.STARTED;
            LOG.log(Level.DEBUG, () -> "Weft listening on " + listener.getLocalSocketAddress());
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
                    closeListener();
                    connections.beginDrain();
                    runStopActions();
                    return true;
                }
                case STOPPING -> {
                    return true;
                }
                case NEW, BOUND -> {
                    state = State.STOPPED;
                    closeListener();
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
            acceptorThread.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void closeListener() {
        try {
            if (listener != null) {
                listener.close();
            }
        } catch (IOException e) {
            LOG.log(Level.DEBUG, () -> "closing listener failed: " + e);
        }
    }

    InetSocketAddress address() {
        ServerSocket s = listener;
        return s == null ? null : (InetSocketAddress) s.getLocalSocketAddress();
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
