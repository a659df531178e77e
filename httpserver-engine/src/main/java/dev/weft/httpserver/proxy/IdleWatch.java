package dev.weft.httpserver.proxy;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Ends a forwarded exchange or a tunnel that has moved no byte for a while: the pumps {@link #touch()} it
 * after every transfer, and a virtual thread of its own runs {@code onIdle} (which closes the origin
 * socket, and for a tunnel also aborts the client's exchange, failing whatever blocks on either) once nothing
 * happened for the timeout. Stopped by {@link #close()}.
 */
final class IdleWatch implements AutoCloseable {

    private final long timeoutNanos;
    private final Runnable onIdle;
    private final Thread thread;
    private volatile long lastActivity = System.nanoTime();
    private volatile boolean closed;
    private volatile boolean fired;

    IdleWatch(Duration timeout, Runnable onIdle, String name) {
        this.timeoutNanos = timeout.toNanos();
        this.onIdle = onIdle;
        this.thread = Thread.ofVirtual().name(name).start(this::watch);
    }

    private void watch() {
        while (!closed) {
            long idle = System.nanoTime() - lastActivity;
            if (idle >= timeoutNanos) {
                fired = true;
                onIdle.run();
                return;
            }
            LockSupport.parkNanos(this, timeoutNanos - idle);
        }
    }

    /** Records progress. */
    void touch() {
        lastActivity = System.nanoTime();
    }

    /** Whether the timeout expired (and {@code onIdle} ran). */
    boolean fired() {
        return fired;
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }
}
