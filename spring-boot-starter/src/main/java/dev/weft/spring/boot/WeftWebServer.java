package dev.weft.spring.boot;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.Listener;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.spring.boot.reactive.WeftHttpHandlerAdapter;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.web.server.GracefulShutdownCallback;
import org.springframework.boot.web.server.GracefulShutdownResult;
import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.WebServerException;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link WebServer} backed by a Weft {@link HttpServer} (or {@link HttpsServer}).
 *
 * <p>Nothing listens until {@link #start()}, which creates and binds a new engine server (with its additional
 * listeners), so a server stopped with {@link #stop()} can be started again (until {@link #destroy()}). The
 * engine's acceptor threads are not daemon threads and keep the JVM alive while the server runs.
 *
 * <p>{@link #shutDownGracefully(GracefulShutdownCallback)} uses {@link Weft#shutdownGracefully}: the
 * listening sockets close at once, idle connections are closed, and in-flight exchanges finish (their responses
 * say {@code Connection: close}). {@link #stop()} cuts a pending graceful shutdown short.
 *
 * <p>Subclasses serve something more than a handler (the servlet server runs a servlet container behind it):
 * they take part in the life cycle through {@link #beforeListening()}, {@link #afterStopped()} and
 * {@link #afterDestroyed()}, all called with this server's lock held.
 */
public class WeftWebServer implements WebServer {

    private static final Log logger = LogFactory.getLog(WeftWebServer.class);

    /** Guards starting, stopping and destroying, and the TLS configuration. */
    private final ReentrantLock lock = new ReentrantLock();

    private final HttpHandler handler;

    private final ServerConfig config;

    private final InetSocketAddress address;

    private final List<Listener> additionalListeners;

    private final Shutdown shutdown;

    private volatile HttpsConfigurator httpsConfigurator;

    /** The running engine server, or {@code null}; written under {@link #lock}. */
    private volatile HttpServer server;

    private boolean running;

    private boolean destroyed;

    /**
     * A server that will serve {@code handler} on context {@code /}.
     *
     * @param handler           the handler of every request
     * @param config            the engine configuration
     * @param address           where to listen, or {@code null} to never listen (port -1)
     * @param httpsConfigurator TLS configuration, or {@code null} for cleartext HTTP
     * @param shutdown          how {@link #shutDownGracefully} behaves
     */
    public WeftWebServer(HttpHandler handler, ServerConfig config, InetSocketAddress address,
            HttpsConfigurator httpsConfigurator, Shutdown shutdown) {
        this(handler, config, new WeftEndpoint(address, httpsConfigurator), shutdown);
    }

    /**
     * A server that will serve {@code handler} on context {@code /}.
     *
     * @param handler  the handler of every request
     * @param config   the engine configuration
     * @param endpoint where to listen (or never), with or without TLS
     * @param shutdown how {@link #shutDownGracefully} behaves
     */
    public WeftWebServer(HttpHandler handler, ServerConfig config, WeftEndpoint endpoint, Shutdown shutdown) {
        this(handler, config, endpoint, List.of(), shutdown);
    }

    /**
     * A server that will serve {@code handler} on context {@code /}, on the endpoint's address and on
     * {@code additionalListeners}; all are bound or none. {@link #getPort()} is the endpoint's port.
     *
     * @param handler             the handler of every request
     * @param config              the engine configuration
     * @param endpoint            where to listen (or never, and then on none of the additional listeners either),
     *                            with or without TLS
     * @param additionalListeners where else to listen
     * @param shutdown            how {@link #shutDownGracefully} behaves
     */
    public WeftWebServer(HttpHandler handler, ServerConfig config, WeftEndpoint endpoint,
            List<Listener> additionalListeners, Shutdown shutdown) {
        this.handler = Objects.requireNonNull(handler, "handler");
        this.config = Objects.requireNonNull(config, "config");
        this.additionalListeners = List.copyOf(additionalListeners);
        this.address = endpoint.address();
        this.httpsConfigurator = endpoint.httpsConfigurator();
        this.shutdown = shutdown != null ? shutdown : Shutdown.IMMEDIATE;
    }

    /**
     * Binds and starts the engine server; does nothing if it is running or if this server never listens.
     *
     * @throws org.springframework.boot.web.server.PortInUseException if a port is taken (none stays bound)
     * @throws WebServerException if the server cannot start otherwise, or was destroyed
     */
    @Override
    public void start() throws WebServerException {
        lock.lock();
        try {
            if (running) {
                return;
            }
            if (destroyed) {
                throw new WebServerException("Weft web server has been destroyed and cannot be started", null);
            }
            beforeListening();
            if (address == null) {
                running = true;
                logger.debug("Weft not listening: port is -1");
                return;
            }
            HttpServer started = EngineServerBinding.bind(address, httpsConfigurator, additionalListeners, config);
            try {
                HttpContext root = started.createContext("/", handler);
                if (handler instanceof WeftHttpHandlerAdapter) {
                    // The WebFlux adapter does the exchange's I/O on the connection's thread and starts the
                    // application's pipeline where the server runs application code.
                    Weft.runInline(root);
                }
                started.start();
            } catch (RuntimeException ex) {
                started.stop(0);
                throw new WebServerException("Unable to start Weft", ex);
            }
            server = started;
            running = true;
            logger.info(startedMessage());
        } finally {
            lock.unlock();
        }
    }

    /** The line logged once the server listens, e.g. {@code Weft started on ports 8080 (http), 8443 (https)}. */
    protected String startedMessage() {
        return "Weft started on " + EngineServerBinding.portsDescription(server);
    }

    /**
     * Called by {@link #start()} before the engine server binds (also when this server never listens), each
     * time it starts; a failure fails the start. Does nothing here.
     *
     * @throws WebServerException if what the server serves cannot start
     */
    protected void beforeListening() {
    }

    /** Called by {@link #stop()} after the engine server stopped, when the server had started. Does nothing here. */
    protected void afterStopped() {
    }

    /** Called once by {@link #destroy()}, after the server stopped. Does nothing here. */
    protected void afterDestroyed() {
    }

    /**
     * Stops the engine server at once, closing every connection; a pending graceful shutdown then reports
     * {@link GracefulShutdownResult#REQUESTS_ACTIVE}. Does nothing if the server is not running.
     */
    @Override
    public void stop() throws WebServerException {
        HttpServer stopping;
        boolean wasRunning;
        lock.lock();
        try {
            stopping = server;
            server = null;
            wasRunning = running;
            running = false;
        } finally {
            lock.unlock();
        }
        if (stopping != null) {
            stopping.stop(0);
            logger.debug("Weft stopped");
        }
        if (wasRunning) {
            lock.lock();
            try {
                afterStopped();
            } finally {
                lock.unlock();
            }
        }
    }

    /** Stops the server for good; it cannot be started again. */
    @Override
    public void destroy() {
        stop();
        lock.lock();
        try {
            if (!destroyed) {
                destroyed = true;
                afterDestroyed();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The port the server listens on, or -1 if it is not running (or never listens). */
    @Override
    public int getPort() {
        HttpServer current = server;
        InetSocketAddress bound = current != null ? current.getAddress() : null;
        return bound != null ? bound.getPort() : -1;
    }

    /** The port of every listener, the main one ({@link #getPort()}) first; empty if the server is not running. */
    public List<Integer> getPorts() {
        HttpServer current = server;
        return current == null ? List.of() : EngineServerBinding.ports(current);
    }

    /**
     * Stops accepting connections and lets in-flight exchanges finish. The callback (called on another thread
     * unless the result is known at once) gets {@link GracefulShutdownResult#IMMEDIATE} if the shutdown mode is
     * not {@link Shutdown#GRACEFUL}, {@link GracefulShutdownResult#IDLE} once every exchange has finished, or
     * {@link GracefulShutdownResult#REQUESTS_ACTIVE} if {@link #stop()} cut the wait short.
     */
    @Override
    public void shutDownGracefully(GracefulShutdownCallback callback) {
        if (shutdown != Shutdown.GRACEFUL) {
            callback.shutdownComplete(GracefulShutdownResult.IMMEDIATE);
            return;
        }
        HttpServer current = server;
        if (current == null) {
            callback.shutdownComplete(GracefulShutdownResult.IDLE);
            return;
        }
        logger.info("Commencing graceful shutdown. Waiting for active requests to complete");
        Weft.shutdownGracefully(current).whenComplete((drained, failure) -> {
            if (Boolean.TRUE.equals(drained)) {
                logger.info("Graceful shutdown complete");
                callback.shutdownComplete(GracefulShutdownResult.IDLE);
            } else {
                logger.info("Graceful shutdown aborted with one or more requests still active");
                callback.shutdownComplete(GracefulShutdownResult.REQUESTS_ACTIVE);
            }
        });
    }

    /** The running engine server (a Weft server), or {@code null} if it is not running. */
    public HttpServer getServer() {
        return server;
    }

    /** The engine configuration every start of this server uses. */
    public ServerConfig getServerConfig() {
        return config;
    }

    /** The shutdown mode. */
    public Shutdown getShutdown() {
        return shutdown;
    }

    /** Whether this server speaks TLS. */
    public boolean isSecure() {
        return httpsConfigurator != null;
    }

    /** Uses {@code configurator} for new TLS connections (SSL bundle reload). */
    void updateHttpsConfigurator(HttpsConfigurator configurator) {
        lock.lock();
        try {
            httpsConfigurator = configurator;
            if (server instanceof HttpsServer https) {
                https.setHttpsConfigurator(configurator);
            }
        } finally {
            lock.unlock();
        }
    }
}
