package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.weft.httpserver.config.Listener;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.ServerStats;
import dev.weft.httpserver.stats.StatsSnapshot;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Weft's {@link HttpsServer}. The {@link HttpsConfigurator} is asked to configure each connection, on that
 * connection's thread, before its handshake.
 */
public final class WeftHttpsServer extends HttpsServer implements WeftServer {

    private final ServerRuntime runtime;
    private volatile HttpsConfigurator configurator;

    /** An unbound server; set a configurator and {@link #bind} it before {@link #start()}. */
    public WeftHttpsServer(ServerConfig config) {
        this.runtime = new ServerRuntime(config, this, () -> configurator);
    }

    @Override
    public ServerConfig config() {
        return runtime.config();
    }

    @Override
    public StatsSnapshot stats() {
        return runtime.snapshot();
    }

    @Override
    public ServerStats liveStats() {
        return runtime.stats();
    }

    @Override
    public Runnable whenStopping(Runnable action) {
        return runtime.whenStopping(action);
    }

    @Override
    public void setHttpsConfigurator(HttpsConfigurator config) {
        this.configurator = Objects.requireNonNull(config, "null HttpsConfigurator");
    }

    @Override
    public HttpsConfigurator getHttpsConfigurator() {
        return configurator;
    }

    @Override
    public void bind(InetSocketAddress addr, int backlog) throws IOException {
        runtime.bind(addr, backlog);
    }

    @Override
    public void addListeners(List<Listener> listeners) throws IOException {
        runtime.addListeners(listeners);
    }

    @Override
    public void start() {
        if (configurator == null) {
            throw new IllegalStateException("HttpsConfigurator not set");
        }
        runtime.start();
    }

    @Override
    public void setExecutor(Executor executor) {
        runtime.setExecutor(executor);
    }

    @Override
    public Executor getExecutor() {
        return runtime.getExecutor();
    }

    @Override
    public Executor applicationExecutor() {
        return runtime.applicationExecutor();
    }

    @Override
    public void stop(int delay) {
        runtime.stop(delay);
    }

    @Override
    public CompletableFuture<Boolean> shutdownGracefully() {
        return runtime.shutdownGracefully();
    }

    @Override
    public HttpContext createContext(String path, HttpHandler handler) {
        if (handler == null) {
            throw new NullPointerException("null handler, or path parameter");
        }
        return runtime.createContext(path, handler);
    }

    @Override
    public HttpContext createContext(String path) {
        return runtime.createContext(path, null);
    }

    @Override
    public void removeContext(String path) {
        runtime.removeContext(path);
    }

    @Override
    public void removeContext(HttpContext context) {
        runtime.removeContext(context);
    }

    @Override
    public InetSocketAddress getAddress() {
        return runtime.address();
    }
}
