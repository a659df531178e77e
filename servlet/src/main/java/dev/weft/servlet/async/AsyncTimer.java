package dev.weft.servlet.async;

import java.util.concurrent.locks.LockSupport;

/**
 * One asynchronous cycle's timeout: a virtual thread that sleeps until the deadline and then runs the expiry,
 * unless cancelled first. Cancelling wakes it and it ends.
 */
final class AsyncTimer {

    private final Thread thread;
    private volatile boolean cancelled;

    AsyncTimer(long timeoutMillis, Runnable expiry) {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        thread = Thread.ofVirtual().name("weft-servlet-async-timeout").start(() -> {
            long left;
            while (!cancelled && (left = deadline - System.nanoTime()) > 0) {
                LockSupport.parkNanos(this, left);
            }
            if (!cancelled) {
                expiry.run();
            }
        });
    }

    void cancel() {
        cancelled = true;
        LockSupport.unpark(thread);
    }
}
