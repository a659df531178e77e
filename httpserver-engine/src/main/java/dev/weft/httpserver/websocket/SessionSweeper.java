package dev.weft.httpserver.websocket;

import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One virtual thread that runs the {@link SessionTimers} of every open session in the JVM, so that an idle
 * session costs no thread of its own: each pass checks every session, starts what is due, and sleeps until
 * the earliest next timer, but at least the shortest {@link SessionTimers#lateness()} among the sessions (so
 * many sessions with timers spread in time cost a pass per lateness, not per timer). A new session or a
 * close frame sent wakes it when its timer is earlier than the planned wake-up. The thread starts with the
 * first session and ends when none is left.
 */
final class SessionSweeper {

    private static final System.Logger LOG = System.getLogger(SessionSweeper.class.getName());
    private static final SessionSweeper SHARED = new SessionSweeper();
    /** Longest sleep, so a changed clock of a session is looked at again within it anyway. */
    private static final long MAX_SLEEP = 1_000_000_000L;

    private final Set<SessionTimers> sessions = ConcurrentHashMap.newKeySet();
    /** Guards starting and ending the thread. */
    private final ReentrantLock lock = new ReentrantLock();
    private volatile Thread thread;
    /** When the thread wakes next ({@link System#nanoTime()}). */
    private volatile long plannedWake;

    static SessionSweeper shared() {
        return SHARED;
    }

    /** Starts checking a session's timers; returns what stops it (call once the session has ended). */
    Runnable add(SessionTimers timers) {
        lock.lock();
        try {
            sessions.add(timers);
            if (thread == null) {
                plannedWake = System.nanoTime();
                thread = Thread.ofVirtual().name("weft-ws-sweeper").start(this::run);
                return () -> sessions.remove(timers);
            }
        } finally {
            lock.unlock();
        }
        wake(timers);
        return () -> sessions.remove(timers);
    }

    /** The session's timers changed (our close frame went out): wakes the thread if they are due earlier. */
    void wake(SessionTimers timers) {
        Thread t = thread;
        if (t != null && timers.nextDue() - plannedWake < 0) {
            LockSupport.unpark(t);
        }
    }

    /** Number of sessions whose timers are checked; for tests. */
    int size() {
        return sessions.size();
    }

    private void run() {
        while (true) {
            lock.lock();
            try {
                if (sessions.isEmpty()) {
                    thread = null;
                    return;
                }
            } finally {
                lock.unlock();
            }
            long now = System.nanoTime();
            long next = now + MAX_SLEEP;
            long lateness = MAX_SLEEP;
            for (SessionTimers t : sessions) {
                try {
                    long due = t.check(now);
                    if (due - next < 0) {
                        next = due;
                    }
                    lateness = Math.min(lateness, t.lateness());
                } catch (RuntimeException | Error e) {
                    // One session's failure must not stop the timers of all the others.
                    LOG.log(Level.ERROR, "WebSocket timer of " + t.session().remoteAddress() + " failed", e);
                }
            }
            long wake = next - (now + lateness) < 0 ? now + lateness : next;
            plannedWake = wake;
            LockSupport.parkNanos(this, wake - System.nanoTime());
        }
    }
}
