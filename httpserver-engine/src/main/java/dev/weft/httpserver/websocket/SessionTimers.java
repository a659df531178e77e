package dev.weft.httpserver.websocket;

import dev.weft.httpserver.config.WebSocketConfig;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The timers of one session, checked by the {@link SessionSweeper} (no thread of its own): closes an idle
 * session with {@code 1001} ({@code idleTimeout}), pings one that has been quiet for {@code pingInterval},
 * and ends the connection when the peer has not answered our close frame within {@code closeTimeout}
 * (RFC 6455 §7.1.1 lets the server close the TCP connection then). What a timer does can block on the
 * socket, so it runs on a short-lived virtual thread, one at a time per session.
 */
final class SessionTimers {

    private static final System.Logger LOG = System.getLogger(SessionTimers.class.getName());
    /** Longest a due timer may wait for the sweeper, whatever the session's settings. */
    private static final long MAX_LATENESS = 250_000_000L;
    private static final long MIN_LATENESS = 5_000_000L;

    // Set once.
    private final WsSession session;
    private final long idleNanos;
    private final long pingNanos;
    private final long closeNanos;
    /** How late a due timer may fire: an eighth of the shortest timer, within 5..250 ms. */
    private final long lateness;
    // Sweeper thread only.
    private long lastPing = System.nanoTime();
    // Set by the sweeper, cleared by the action's thread.
    private final AtomicBoolean acting = new AtomicBoolean();

    SessionTimers(WsSession session) {
        WebSocketConfig c = session.config();
        this.session = session;
        this.idleNanos = nanos(c.idleTimeout());
        this.pingNanos = nanos(c.pingInterval());
        this.closeNanos = nanos(c.closeTimeout());
        long shortest = Math.min(idleNanos, closeNanos);
        if (pingNanos > 0) {
            shortest = Math.min(shortest, pingNanos);
        }
        this.lateness = Math.max(MIN_LATENESS, Math.min(MAX_LATENESS, shortest / 8));
    }

    WsSession session() {
        return session;
    }

    long lateness() {
        return lateness;
    }

    /** When the first timer is due, without acting; for waking the sweeper. */
    long nextDue() {
        if (session.closeSent()) {
            return session.closeSentNanos() + closeNanos;
        }
        long idleDue = session.lastReceivedNanos() + idleNanos;
        if (pingNanos > 0) {
            long pingDue = Math.max(session.lastReceivedNanos(), lastPing) + pingNanos;
            return pingDue - idleDue < 0 ? pingDue : idleDue;
        }
        return idleDue;
    }

    /**
     * Starts what is due at {@code now}; called by the sweeper.
     *
     * @return when to check again ({@link System#nanoTime()})
     */
    long check(long now) {
        if (acting.get()) {
            return now + lateness;
        }
        if (session.aborted()) {
            return now + MAX_LATENESS; // ends soon and unregisters
        }
        if (session.closeSent()) {
            long due = session.closeSentNanos() + closeNanos;
            if (now - due >= 0) {
                LOG.log(Level.DEBUG, () -> "no close frame from " + session.remoteAddress() + " within "
                        + session.config().closeTimeout() + ": closing the connection");
                act(session::abort);
                return now + MAX_LATENESS;
            }
            return due;
        }
        long last = session.lastReceivedNanos();
        long idleDue = last + idleNanos;
        if (now - idleDue >= 0) {
            LOG.log(Level.DEBUG, () -> "WebSocket from " + session.remoteAddress() + " idle for "
                    + session.config().idleTimeout() + ": closing");
            act(() -> session.sendCloseQuietly(CloseStatus.GOING_AWAY, "idle timeout"));
            return now + lateness;
        }
        long next = idleDue;
        if (pingNanos > 0) {
            long pingDue = (last - lastPing > 0 ? last : lastPing) + pingNanos;
            if (now - pingDue >= 0) {
                act(session::keepAlivePing);
                lastPing = now;
                pingDue = now + pingNanos;
            }
            next = next - pingDue < 0 ? next : pingDue;
        }
        return next;
    }

    /** Runs {@code action} off the sweeper thread; the next check waits until it is done. */
    private void act(Runnable action) {
        acting.set(true);
        try {
            Thread.ofVirtual().name("weft-ws-timer").start(() -> {
                try {
                    action.run();
                } finally {
                    acting.set(false);
                }
            });
        } catch (RuntimeException | Error e) {
            acting.set(false); // tried again at the next check
            throw e;
        }
    }

    private static long nanos(Duration d) {
        return d.compareTo(Duration.ofDays(365)) > 0 ? Duration.ofDays(365).toNanos() : d.toNanos();
    }
}
