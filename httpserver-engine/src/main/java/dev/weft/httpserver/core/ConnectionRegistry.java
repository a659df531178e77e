package dev.weft.httpserver.core;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.ServerStats;

import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The open connections of one server: enforces the connection limit, drains them on a graceful stop and
 * runs a sweeper that closes connections stuck in a write or a handshake.
 */
public final class ConnectionRegistry {

    private final ServerConfig config;
    private final ServerStats stats;
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger count = new AtomicInteger();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition emptied = lock.newCondition();
    private volatile boolean draining;
    private volatile Thread sweeper;

    public ConnectionRegistry(ServerConfig config, ServerStats stats) {
        this.config = config;
        this.stats = stats;
    }

    /**
     * Reserves a slot and registers a new connection for the socket.
     *
     * @return the connection, or {@code null} when the limit is reached or the server is stopping
     */
    public Connection tryOpen(Socket socket) {
        if (draining) {
            return null;
        }
        if (count.incrementAndGet() > config.maxConnections()) {
            count.decrementAndGet();
            return null;
        }
        Connection c = null;
        try {
            c = new Connection(socket, config, stats, this);
            connections.add(c);
        } catch (RuntimeException | Error e) {
            // e.g. out of memory: give the slot back
            if (c != null) {
                connections.remove(c);
            }
            count.decrementAndGet();
            throw e;
        }
        stats.connectionOpened();
        return c;
    }

    /** Unregisters a connection that has closed. */
    public void closed(Connection c) {
        c.flushByteCounts();
        if (connections.remove(c)) {
            stats.connectionClosed();
            if (count.decrementAndGet() == 0) {
                lock.lock();
                try {
                    emptied.signalAll();
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    public int size() {
        return count.get();
    }

    boolean draining() {
        return draining;
    }

    /** Starts the sweeper thread. */
    public void start(String name) {
        Thread t = Thread.ofVirtual().name(name).unstarted(this::sweep);
        sweeper = t;
        t.start();
    }

    private void sweep() {
        // Timeouts are enforced at this granularity: a quarter of the shortest one, within 10..250 ms.
        long shortest = java.util.stream.Stream.of(config.headerReadTimeout(), config.idleTimeout(),
                config.bodyReadTimeout(), config.writeTimeout(), config.tlsHandshakeTimeout())
                .mapToLong(Duration::toMillis).min().orElse(1000);
        long interval = Math.max(10, Math.min(250, shortest / 4));
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(interval);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Connection c : connections) {
                c.closeIfStalled(now);
            }
            stats.logClientEventSummary();
        }
    }

    /** Stops taking connections and closes the idle ones; busy ones close after their exchange. */
    public void beginDrain() {
        draining = true;
        for (Connection c : connections) {
            c.closeIfIdle();
        }
    }

    /**
     * Waits until every connection has closed, at most {@code timeoutNanos}.
     *
     * @return whether all connections closed in time
     */
    public boolean awaitDrained(long timeoutNanos) throws InterruptedException {
        long deadlineNanos = System.nanoTime() + timeoutNanos;
        lock.lock();
        try {
            while (count.get() > 0) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                // Idle connections may appear after the first pass (an exchange just ended): close them too.
                emptied.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)), TimeUnit.NANOSECONDS);
                for (Connection c : connections) {
                    c.closeIfIdle();
                }
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Closes every connection now, interrupting handlers still running inline, and stops the sweeper. */
    public void closeAll() {
        for (Connection c : connections) {
            c.forceClose();
        }
        Thread t = sweeper;
        if (t != null) {
            t.interrupt();
        }
    }
}
