package dev.weft.httpserver.spi;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.Acceptor;
import dev.weft.httpserver.core.ConnectionRegistry;
import dev.weft.httpserver.core.TransportSecurity;
import dev.weft.httpserver.http1.Http1Connection;
import dev.weft.httpserver.stats.ServerStats;
import dev.weft.httpserver.stats.StatsHandler;
import dev.weft.httpserver.stats.StatsSnapshot;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What {@link WeftHttpServer} and {@link WeftHttpsServer} share: the listening socket, lifecycle
 * ({@code bind → start → stop}), contexts, executor, connections and statistics of one server.
 */
final class ServerRuntime {

    private static final System.Logger LOG = System.getLogger(ServerRuntime.class.getName());

    private enum State { NEW, BOUND, STARTED, STOPPED }

    private final ServerConfig config;
    private final ServerStats stats = new ServerStats();
    private final ContextRegistry contexts = new ContextRegistry();
    private final ConnectionRegistry connections;
    private final RequestRouter router;
    private final HttpServer owner;
    private final ReentrantLock lock = new ReentrantLock();
    private State state = State.NEW;
    private ServerSocket listener;
    private Thread acceptorThread;
    private volatile Executor executor;

    ServerRuntime(ServerConfig config, HttpServer owner, boolean https) {
        this.config = Objects.requireNonNull(config, "config");
        this.owner = owner;
        this.connections = new ConnectionRegistry(config, stats);
        this.router = new RequestRouter(contexts, stats, () -> executor, https, owner);
        if (config.statsPath() != null) {
            contexts.create(config.statsPath(), new StatsHandler(stats::snapshot), owner);
        }
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
            ServerSocket s = new ServerSocket();
            try {
                s.setReuseAddress(true);
                s.bind(address, backlog > 0 ? backlog : config.backlog());
            } catch (IOException e) {
                s.close();
                throw e;
            }
            listener = s;
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
            connections.start("weft-" + listener.getLocalPort() + "-sweeper");
            Acceptor acceptor = new Acceptor(listener, connections, stats, security, new Http1Connection(router));
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

    Executor getExecutor() {
        return executor;
    }

    /** The JDK's {@code stop(delay)}: see {@link ConnectionRegistry#drain(Duration)}. */
    void stop(int delaySeconds) {
        if (delaySeconds < 0) {
            throw new IllegalArgumentException("negative delay parameter");
        }
        Thread acceptor;
        lock.lock();
        try {
            if (state == State.STOPPED) {
                return;
            }
            boolean started = state == State.STARTED;
            state = State.STOPPED;
            closeListener();
            if (!started) {
                return;
            }
            acceptor = acceptorThread;
        } finally {
            lock.unlock();
        }
        try {
            connections.drain(Duration.ofSeconds(delaySeconds));
            acceptor.join(Duration.ofSeconds(5));
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
