package dev.weft.httpserver.core;

import dev.weft.httpserver.accesslog.AccessLog;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.ListenerStats;
import dev.weft.httpserver.stats.ServerStats;

import java.lang.System.Logger.Level;
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
 * runs a sweeper that enforces timeouts and minimum data rates.
 *
 * <p>Short of connections (more open than {@code lowResourcesThreshold × maxConnections}), the server closes
 * idle keep-alive connections after {@code lowResourcesIdleTimeout} instead of {@code idleTimeout}, and
 * connections stalled on their client (see {@link VictimRanking}) after the grace period of the data rates,
 * whatever their socket buffers took before; at
 * {@code maxConnections} a new connection takes the place of a victim ({@link VictimRanking}: the one idle
 * the longest, else the one stalled on its client the longest) and is refused only when there is none.
 * Choosing one is cheap for the accept thread: while the server is short, the sweeper's pass over all
 * connections, which it makes anyway, also ranks the best candidates, and the accept thread takes them in
 * order. Only when they are used up does it rank all connections itself, at most once per
 * {@value #RERANK_MILLIS} ms: a flood of connections at the limit with no victim costs it one pass over the
 * connections per {@value #RERANK_MILLIS} ms, not one per connection.
 */
public final class ConnectionRegistry {

    private static final System.Logger LOG = System.getLogger(ConnectionRegistry.class.getName());
    private static final long RERANK_MILLIS = 20;
    /** A ranking older than this is not used even if it has candidates left. */
    private static final long RANKING_MAX_AGE_NANOS = 1_000_000_000L;

    private final ServerConfig config;
    private final ServerStats stats;
    private final AccessLog accessLog;
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    /** Slots in use: open connections, less those evicted that have not closed yet. */
    private final AtomicInteger count = new AtomicInteger();
    /** Above this many slots in use the server is short of connections. */
    private final int shortAbove;
    private final long lowResourcesIdleNanos;
    /**
     * How long a connection may be stalled while short of connections (the grace period: its buffered bytes
     * no longer buy it more), and how long the mode lasts after the server was last short.
     */
    private final long lowResourcesStallNanos;
    /** Until when the sweeper treats the server as short of connections; sweeper thread only. */
    private long shortUntilNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition emptied = lock.newCondition();
    private volatile boolean draining;
    private volatile Thread sweeper;
    private volatile SchedulerWatchdog watchdog;
    /** The sweeper's latest ranking of victims, or the accept thread's own. */
    private volatile VictimRanking ranking = VictimRanking.empty();
    private final ReentrantLock roomLock = new ReentrantLock();
    // Guarded by roomLock.
    private long lastRankNanos;

    /** The registry of a server without an access log. */
    public ConnectionRegistry(ServerConfig config, ServerStats stats) {
        this(config, stats, null);
    }

    /** The registry of a server whose access log is {@code accessLog} ({@code null}: off). */
    public ConnectionRegistry(ServerConfig config, ServerStats stats, AccessLog accessLog) {
        this.config = config;
        this.stats = stats;
        this.accessLog = accessLog;
        this.shortAbove = (int) Math.min(config.maxConnections(),
                Math.floor(config.lowResourcesThreshold() * config.maxConnections()));
        this.lowResourcesIdleNanos = config.lowResourcesIdleTimeout().toNanos();
        this.lowResourcesStallNanos = Math.max(Math.max(lowResourcesIdleNanos, VictimRanking.MIN_QUIET_NANOS),
                config.dataRateGracePeriod().toNanos());
    }

    /**
     * Reserves a slot and registers a new connection for the socket, accepted by the listener counted by
     * {@code listener}; at the limit, evicts a victim to make room.
     *
     * @return the connection, or {@code null} when the limit is reached with no victim, or the server is
     *         stopping
     */
    public Connection tryOpen(Socket socket, ListenerStats listener) {
        if (draining) {
            return null;
        }
        if (count.incrementAndGet() > config.maxConnections() && !makeRoom()) {
            count.decrementAndGet();
            return null;
        }
        Connection c = null;
        try {
            c = new Connection(socket, config, stats, listener, this);
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
        listener.connectionOpened();
        return c;
    }

    /** The server's access log, or {@code null} when it is off. */
    AccessLog accessLog() {
        return accessLog;
    }

    /** Unregisters a connection that has closed. */
    public void closed(Connection c) {
        c.flushByteCounts();
        if (connections.remove(c)) {
            stats.connectionClosed();
            c.listenerStats().connectionClosed();
            if (c.releaseSlot()) {
                count.decrementAndGet();
            }
            if (connections.isEmpty()) {
                lock.lock();
                try {
                    emptied.signalAll();
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /** Slots in use: open connections, less those evicted that have not closed yet. */
    public int size() {
        return count.get();
    }

    /**
     * Evicts a victim so that a new connection can have its slot (see the class comment).
     *
     * @return whether one was evicted
     */
    private boolean makeRoom() {
        roomLock.lock();
        try {
            long now = System.nanoTime();
            VictimRanking r = ranking;
            if (now - r.madeNanos() > RANKING_MAX_AGE_NANOS) {
                r = rerank(now);
            }
            while (r != null) {
                for (Connection c; (c = r.next()) != null; ) {
                    if (VictimRanking.isVictim(c, now) && evict(c, "to make room for a new connection")) {
                        return true;
                    }
                }
                r = rerank(now);
            }
            return false;
        } finally {
            roomLock.unlock();
        }
    }

    /** Ranks all connections afresh, unless that was done within the last {@value #RERANK_MILLIS} ms. */
    private VictimRanking rerank(long now) {
        if (lastRankNanos != 0 && now - lastRankNanos < RERANK_MILLIS * 1_000_000L) {
            return null;
        }
        lastRankNanos = now;
        VictimRanking r = new VictimRanking(now);
        for (Connection c : connections) {
            r.offer(c, now);
        }
        ranking = r;
        return r;
    }

    /**
     * Gives back the slot of {@code c} and closes it (as {@link Connection#evict()} describes), counted as a
     * low-resources close.
     *
     * @return false if it was closing already
     */
    private boolean evict(Connection c, String why) {
        if (!c.releaseSlot()) {
            return false;
        }
        count.decrementAndGet();
        stats.lowResourcesClose();
        c.evict();
        LOG.log(Level.DEBUG, () -> "closed connection from " + c.remoteAddress() + " " + why);
        return true;
    }

    boolean draining() {
        return draining;
    }

    /**
     * Starts the sweeper: a platform thread, so that timeouts are kept, and a stall of the virtual-thread
     * scheduler is noticed ({@link SchedulerWatchdog}), even when every carrier thread is held.
     *
     * @param name the server's name for its threads, e.g. {@code weft-8080}
     */
    public void start(String name) {
        watchdog = new SchedulerWatchdog(name, () -> {
            var s = stats.snapshot();
            return s.requests() + s.bytesReceived() + s.bytesSent();
        });
        Thread t = Thread.ofPlatform().name(name + "-sweeper").daemon(true).unstarted(this::sweep);
        sweeper = t;
        t.start();
    }

    private void sweep() {
        // Timeouts are enforced at this granularity: a quarter of the shortest one, within 10..250 ms.
        long shortest = java.util.stream.Stream.of(config.headerReadTimeout(), config.idleTimeout(),
                config.bodyReadTimeout(), config.writeTimeout(), config.tlsHandshakeTimeout(),
                config.dataRateGracePeriod(), config.lowResourcesIdleTimeout())
                .mapToLong(Duration::toMillis).min().orElse(1000);
        long interval = Math.max(10, Math.min(250, shortest / 4));
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(interval);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            // Deadlines and minimum rates are judged as of the last moment virtual threads were seen running:
            // while the scheduler is behind, a client's bytes may be waiting for a thread we cannot run, and
            // the delay is ours, not the client's.
            sweep(watchdog.scheduledAsOf(now));
            watchdog.check(now, connections);
            stats.logClientEventSummary();
        }
    }

    /**
     * One pass over the connections: timeouts and minimum rates. If the server is short of connections (as
     * the pass starts, or was within the last grace period: a count that hovers about the threshold does not
     * turn the mode on and off), it closes every connection idle for longer than
     * {@code lowResourcesIdleTimeout}, and every one stalled on its client for longer than
     * {@code dataRateGracePeriod} (whatever its buffers took before: a server short of connections no longer
     * counts them), and ranks the others as victims for the accept thread. Stalled ones are left to the
     * accept thread for a while, and do not churn: a client cut reconnects at once.
     */
    private void sweep(long now) {
        int open = count.get();
        if (open > shortAbove) {
            shortUntilNanos = (now + lowResourcesStallNanos) | 1;
        }
        boolean shortOfConnections = shortUntilNanos != 0 && now - shortUntilNanos < 0;
        VictimRanking r = shortOfConnections || open >= config.maxConnections() ? new VictimRanking(now) : null;
        for (Connection c : connections) {
            if (c.closeIfStalled(now) || shortOfConnections && closeIfQuiet(c, now)) {
                continue;
            }
            if (r != null) {
                r.offer(c, now);
            }
        }
        if (r != null) {
            ranking = r;
        }
    }

    /** Closes {@code c} if it has been idle or stalled too long for a server short of connections. */
    private boolean closeIfQuiet(Connection c, long now) {
        long idle = c.idleSince();
        if (idle != 0) {
            return now - idle > lowResourcesIdleNanos
                    && evict(c, "idle for " + (now - idle) / 1_000_000 + " ms while short of connections");
        }
        long stalled = c.stalledSince(now);
        return stalled != 0 && now - stalled > lowResourcesStallNanos
                && evict(c, "stalled for " + (now - stalled) / 1_000_000 + " ms while short of connections");
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
            while (!connections.isEmpty()) {
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
        SchedulerWatchdog w = watchdog;
        if (w != null) {
            w.stop();
        }
    }
}
