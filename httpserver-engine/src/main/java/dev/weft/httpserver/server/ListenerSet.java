package dev.weft.httpserver.server;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.ConnectionRegistry;
import dev.weft.httpserver.core.ExchangeDispatcher;
import dev.weft.httpserver.stats.ServerStats;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The listeners of one server, in the order they were bound: binds each group added all or none, and starts
 * and closes them together. Not thread-safe: the server's lock guards it.
 */
final class ListenerSet {

    /** Most listeners one server may have. */
    static final int MAX_LISTENERS = 64;

    private final List<BoundListener> bound = new ArrayList<>();

    /**
     * Binds every endpoint, in order, or none: if one cannot be bound, those this call bound are closed again
     * and the {@link java.net.BindException} naming its address is thrown.
     */
    void bindAll(List<BoundListener.Endpoint> endpoints, ServerConfig config, ServerStats stats)
            throws IOException {
        if (bound.size() + endpoints.size() > MAX_LISTENERS) {
            throw new IllegalArgumentException("a server has at most " + MAX_LISTENERS + " listeners");
        }
        List<BoundListener> added = new ArrayList<>(endpoints.size());
        try {
            for (BoundListener.Endpoint e : endpoints) {
                added.add(BoundListener.bind(e, config, stats));
            }
        } catch (IOException | RuntimeException e) {
            added.forEach(BoundListener::close);
            throw e;
        }
        bound.addAll(added);
    }

    boolean isEmpty() {
        return bound.isEmpty();
    }

    /** The address of the first listener, or null if none is bound. */
    InetSocketAddress firstAddress() {
        return bound.isEmpty() ? null : bound.get(0).address();
    }

    /** The listeners' names, e.g. {@code http://0.0.0.0:8080, https://0.0.0.0:8443}. */
    String names() {
        return bound.stream().map(BoundListener::name).collect(Collectors.joining(", "));
    }

    /** Starts the accept loop of every listener. */
    void startAll(ServerConfig config, ConnectionRegistry connections, ServerStats stats,
                  ExchangeDispatcher dispatcher) {
        for (BoundListener l : bound) {
            l.start(config, connections, stats, dispatcher);
        }
    }

    /** Stops accepting on every listener; idempotent. */
    void closeAll() {
        bound.forEach(BoundListener::close);
    }

    /** Waits until every accept loop has ended, for {@code timeoutNanos} at most in all. */
    void awaitAcceptorsEnd(long timeoutNanos) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        for (BoundListener l : bound) {
            l.awaitAcceptorEnd(deadline);
        }
    }
}
