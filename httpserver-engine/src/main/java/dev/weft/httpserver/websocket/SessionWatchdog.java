package dev.weft.httpserver.websocket;

import dev.weft.httpserver.config.WebSocketConfig;

import java.lang.System.Logger.Level;
import java.util.concurrent.locks.LockSupport;

/**
 * The timers of one session, on a virtual thread of its own that sleeps until the next one is due: closes an
 * idle session with {@code 1001} ({@code idleTimeout}), pings one that has been quiet for
 * {@code pingInterval}, and ends the connection when the peer has not answered our close frame within
 * {@code closeTimeout} (RFC 6455 §7.1.1 lets the server close the TCP connection then).
 */
final class SessionWatchdog implements Runnable {

    private static final System.Logger LOG = System.getLogger(SessionWatchdog.class.getName());

    private final WsSession session;
    private final long idleNanos;
    private final long pingNanos;
    private final long closeNanos;
    private volatile boolean stopped;
    private volatile Thread thread;

    SessionWatchdog(WsSession session) {
        WebSocketConfig c = session.config();
        this.session = session;
        this.idleNanos = c.idleTimeout().toNanos();
        this.pingNanos = c.pingInterval().toNanos();
        this.closeNanos = c.closeTimeout().toNanos();
    }

    void start() {
        thread = Thread.ofVirtual().name("weft-ws-watchdog").start(this);
        session.onStateChange(this::wake);
    }

    /** The session has ended. */
    void stop() {
        stopped = true;
        wake();
    }

    /** Something changed (our close frame went out): recompute what is due next. */
    void wake() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void run() {
        long lastPing = System.nanoTime();
        while (!stopped && !session.aborted()) {
            long now = System.nanoTime();
            if (session.closeSent()) {
                long due = session.closeSentNanos() + closeNanos;
                if (now - due >= 0) {
                    LOG.log(Level.DEBUG, () -> "no close frame from " + session.remoteAddress() + " within "
                            + session.config().closeTimeout() + ": closing the connection");
                    session.abort();
                    return;
                }
                LockSupport.parkNanos(this, due - now);
                continue;
            }
            long last = session.lastReceivedNanos();
            long idleDue = last + idleNanos;
            if (now - idleDue >= 0) {
                LOG.log(Level.DEBUG, () -> "WebSocket from " + session.remoteAddress() + " idle for "
                        + session.config().idleTimeout() + ": closing");
                session.sendCloseQuietly(CloseStatus.GOING_AWAY, "idle timeout");
                continue;
            }
            long next = idleDue;
            if (pingNanos > 0) {
                long pingDue = Math.max(last, lastPing) + pingNanos;
                if (now - pingDue >= 0) {
                    session.keepAlivePing();
                    lastPing = now;
                    pingDue = now + pingNanos;
                }
                next = next - pingDue < 0 ? next : pingDue;
            }
            LockSupport.parkNanos(this, Math.max(1, next - now));
        }
    }
}
