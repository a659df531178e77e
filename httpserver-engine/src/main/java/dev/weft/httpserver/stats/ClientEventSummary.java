package dev.weft.httpserver.stats;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * Keeps what clients cause (malformed requests, timeouts, resets, floods) out of the warnings: each event is
 * counted by {@link ServerStats} and described at {@code DEBUG} where it happens, and this class writes at
 * most one {@code INFO} line per {@link ProtocolError} kind per interval, saying how many there were. A flood
 * of bad clients therefore costs a few lines a minute, whatever its size.
 *
 * <p>Lock-free: any thread may {@link #record} an event; the line is written by whichever thread finds the
 * interval over (the event's own thread, or the server's sweeper through {@link #flush}).
 */
final class ClientEventSummary {

    /** Logger of the summary lines; per-event detail goes to the loggers of the classes that see the event. */
    static final String LOGGER_NAME = "dev.weft.httpserver.clients";

    private static final System.Logger LOG = System.getLogger(LOGGER_NAME);
    private static final ProtocolError[] ERRORS = ProtocolError.values();
    /** The slot after the protocol errors: connections the server closed early, short of connections. */
    private static final int LOW_RESOURCES = ERRORS.length;
    private static final int KINDS = ERRORS.length + 1;

    private final long intervalNanos;
    private final LongSupplier clock;
    /** Events per kind not reported yet. */
    private final AtomicLongArray unreported = new AtomicLongArray(KINDS);
    /** When each kind was last reported ({@code clock} value, 0 for never). */
    private final AtomicLongArray lastReported = new AtomicLongArray(KINDS);
    /** Which server the lines are about, e.g. its listening address; empty until known. */
    private volatile String server = "";

    ClientEventSummary(long intervalNanos, LongSupplier clock) {
        this.intervalNanos = intervalNanos;
        this.clock = clock;
    }

    /** Names the server in the lines, e.g. {@code 127.0.0.1:8080}. */
    void server(String name) {
        server = name + ": ";
    }

    /** Notes one event; reports it at once if this kind was not reported within the interval. */
    void record(ProtocolError kind) {
        record(kind.ordinal());
    }

    /**
     * Notes a connection the server closed early because it was short of connections (an idle or stalled client
     * making room for a new one): not a client's fault, but what an operator sizing {@code maxConnections} wants to
     * see, summarised the same way.
     */
    void recordLowResourcesClose() {
        record(LOW_RESOURCES);
    }

    private void record(int slot) {
        unreported.incrementAndGet(slot);
        report(slot, clock.getAsLong());
    }

    /** Reports every kind with unreported events whose interval is over; called periodically. */
    void flush() {
        long now = clock.getAsLong();
        for (int slot = 0; slot < KINDS; slot++) {
            if (unreported.get(slot) > 0) {
                report(slot, now);
            }
        }
    }

    private void report(int i, long now) {
        long last = lastReported.get(i);
        if (last != 0 && now - last < intervalNanos) {
            return;
        }
        // One thread wins the interval; the others leave their events for the next line.
        if (!lastReported.compareAndSet(i, last, now == 0 ? 1 : now)) {
            return;
        }
        long n = unreported.getAndSet(i, 0);
        if (n > 0 && LOG.isLoggable(Level.INFO)) {
            long seconds = last == 0 ? 0 : Math.round((now - last) / 1e9);
            String what = i == LOW_RESOURCES
                    ? (n == 1 ? " connection" : " connections") + " closed early to make room, short of connections"
                    : (n == 1 ? " client event " : " client events ") + ERRORS[i].key();
            LOG.log(Level.INFO, server + n + what + (seconds > 0 ? " in the last " + seconds + " s" : "")
                    + " (counted in the statistics; each is logged at DEBUG)");
        }
    }
}
