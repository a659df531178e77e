package dev.weft.websocket.jakarta.session;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@code Session.setMaxIdleTimeout} of one session: activity (a message sent or received) is recorded
 * cheaply, and one scheduled check per timeout period closes the session when nothing happened for that long.
 */
final class IdleWatch {

    private final ScheduledExecutorService scheduler;
    private final Runnable onIdle;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile long lastActivity = System.nanoTime();
    private long timeoutMillis;
    private ScheduledFuture<?> check;
    private boolean stopped;

    IdleWatch(ScheduledExecutorService scheduler, Runnable onIdle) {
        this.scheduler = scheduler;
        this.onIdle = onIdle;
    }

    void touch() {
        lastActivity = System.nanoTime();
    }

    long timeoutMillis() {
        lock.lock();
        try {
            return timeoutMillis;
        } finally {
            lock.unlock();
        }
    }

    /** Sets the timeout; zero or less turns the watch off. */
    void timeout(long millis) {
        lock.lock();
        try {
            timeoutMillis = Math.max(0, millis);
            if (check != null) {
                check.cancel(false);
                check = null;
            }
            if (timeoutMillis > 0 && !stopped) {
                touch();
                check = scheduler.schedule(this::fire, timeoutMillis, TimeUnit.MILLISECONDS);
            }
        } finally {
            lock.unlock();
        }
    }

    void stop() {
        lock.lock();
        try {
            stopped = true;
            if (check != null) {
                check.cancel(false);
            }
        } finally {
            lock.unlock();
        }
    }

    private void fire() {
        lock.lock();
        try {
            if (stopped || timeoutMillis == 0) {
                return;
            }
            long idle = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastActivity);
            if (idle < timeoutMillis) {
                check = scheduler.schedule(this::fire, timeoutMillis - idle, TimeUnit.MILLISECONDS);
                return;
            }
            stopped = true;
        } finally {
            lock.unlock();
        }
        // closing waits for the peer's close frame: not on the scheduler's thread
        Thread.ofVirtual().name("weft-jakarta-idle-close").start(onIdle);
    }
}
