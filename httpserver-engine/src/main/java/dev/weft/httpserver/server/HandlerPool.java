package dev.weft.httpserver.server;

import dev.weft.httpserver.config.ThreadsConfig;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The platform threads that run handlers when {@link ThreadsConfig#virtual()} is off: at most
 * {@link ThreadsConfig#max()}, {@link ThreadsConfig#minSpare()} started at once and kept. An exchange goes to an
 * idle thread, else to a new one while there are fewer than the maximum (before any queueing, as Tomcat's
 * executor does: a handler that blocks on a database must not make the next one wait while threads could be
 * added), else it waits in arrival order. Threads idle for a minute end, down to {@code minSpare}.
 *
 * <p>The threads are daemons, named {@code weft-handler-<port>-<n>}.
 */
final class HandlerPool implements Executor {

    private static final long KEEP_ALIVE_SECONDS = 60;

    private final ThreadPoolExecutor threads;
    /** Exchanges handed to the pool and not finished: queued or running. */
    private final AtomicInteger inFlight = new AtomicInteger();

    HandlerPool(ThreadsConfig config, String name) {
        HandoffQueue queue = new HandoffQueue();
        threads = new ThreadPoolExecutor(config.minSpare(), config.max(), KEEP_ALIVE_SECONDS, TimeUnit.SECONDS,
                queue, factory(name), (task, pool) -> queue.enqueue(task, pool));
        queue.pool = threads;
        threads.prestartAllCoreThreads();
    }

    private static ThreadFactory factory(String name) {
        AtomicInteger n = new AtomicInteger();
        return task -> Thread.ofPlatform().name(name + "-" + n.incrementAndGet()).daemon(true).unstarted(task);
    }

    @Override
    public void execute(Runnable exchange) {
        inFlight.incrementAndGet();
        try {
            threads.execute(() -> {
                try {
                    exchange.run();
                } finally {
                    inFlight.decrementAndGet();
                }
            });
        } catch (RejectedExecutionException e) {
            inFlight.decrementAndGet();
            throw e;
        }
    }

    /** Threads started now, busy or idle. */
    int size() {
        return threads.getPoolSize();
    }

    /** Exchanges handed to the pool and not finished yet. */
    int inFlight() {
        return inFlight.get();
    }

    /** Refuses new exchanges and interrupts every thread, so that handlers blocked in user code stop too. */
    void shutdownNow() {
        threads.shutdownNow();
    }

    /** Thrown for an exchange handed over after the server began to close its threads: no fault of anyone's. */
    static final class Stopping extends RejectedExecutionException {
        private static final long serialVersionUID = 1L;

        Stopping() {
            super("the server is stopping");
        }
    }

    /**
     * The pool's queue: refuses an exchange (so that the pool starts a thread for it) while no thread is idle
     * and the pool may still grow; queues it otherwise.
     */
    private final class HandoffQueue extends LinkedBlockingQueue<Runnable> {

        private static final long serialVersionUID = 1L;

        private transient ThreadPoolExecutor pool;

        @Override
        public boolean offer(Runnable task) {
            ThreadPoolExecutor p = pool;
            int size = p.getPoolSize();
            if (size < p.getMaximumPoolSize() && inFlight.get() > size) {
                return false; // every thread is busy: a new one takes it
            }
            return super.offer(task);
        }

        /** For a task the pool could not start a thread for (it reached the maximum meanwhile): queue it. */
        void enqueue(Runnable task, ThreadPoolExecutor p) {
            if (p.isShutdown()) {
                throw new Stopping();
            }
            super.offer(task);
        }
    }
}
