package dev.weft.spring.boot.reactive;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The work queue of one exchange, drained by the connection's virtual thread while the reactive pipeline runs
 * wherever its operators put it. Every socket read and write of the exchange is a task here, so blocking I/O
 * never happens on Reactor's non-blocking threads.
 *
 * <p>Threads: {@link #execute}, {@link #submit} and {@link #terminate} may be called from any thread;
 * {@link #run()} is called once, by the connection thread, which then runs every task.
 *
 * <p>The queue is bounded. Producers keep at most one task each in flight (the request body reader, the
 * response writer, the terminal signal), so the bound is never reached by a correct pipeline; a task that
 * does not fit is discarded as if the exchange were over.
 */
final class ExchangeLoop {

    /** Queue capacity: far above the handful of tasks the producers can have in flight together. */
    static final int CAPACITY = 64;

    private static final Log logger = LogFactory.getLog(ExchangeLoop.class);
    private static final Runnable NOTHING = () -> { };

    private final BlockingQueue<Task> queue = new ArrayBlockingQueue<>(CAPACITY);
    private final Task wakeUp = new Task(NOTHING, NOTHING);
    private volatile boolean closed;
    private volatile @Nullable Outcome outcome;

    /** An I/O action run on the connection thread. */
    @FunctionalInterface
    interface IoAction {
        void run() throws IOException;
    }

    /**
     * Queues {@code action} for the connection thread; if the exchange is over (or the queue is full), runs
     * {@code onDiscard} instead, on the calling thread, so the task can release what it holds.
     */
    void execute(Runnable action, Runnable onDiscard) {
        Task task = new Task(action, onDiscard);
        if (closed || !queue.offer(task)) {
            if (!closed) {
                logger.warn("Exchange task queue is full; discarding a task");
            }
            onDiscard.run();
            return;
        }
        if (closed && queue.remove(task)) {
            // The loop ended between the check and the offer, and did not see this task.
            onDiscard.run();
        }
    }

    /**
     * Runs {@code action} on the connection thread when subscribed; the returned {@code Mono} completes (on the
     * connection thread) when the action did, or fails with its exception.
     */
    Mono<Void> submit(IoAction action, Runnable onDiscard) {
        return Mono.create(sink -> execute(() -> {
            try {
                action.run();
            } catch (Throwable ex) {
                sink.error(ex);
                return;
            }
            sink.success();
        }, () -> {
            onDiscard.run();
            sink.error(new IOException("The exchange is over"));
        }));
    }

    /**
     * Ends the loop once the tasks queued so far have run. Only the first call counts.
     *
     * @param failure why the exchange failed, or {@code null} when it completed
     */
    void terminate(@Nullable Throwable failure) {
        synchronized (this) {
            if (outcome != null) {
                return;
            }
            outcome = new Outcome(failure);
        }
        // If the queue is full the loop is busy anyway and sees the outcome once it has drained.
        queue.offer(wakeUp);
    }

    /**
     * Runs tasks on the calling (connection) thread until {@link #terminate} was called and the queue is empty,
     * then discards whatever arrives later.
     *
     * @return the failure given to {@link #terminate}, the first exception a task leaked, or the
     *         {@link InterruptedException} if the thread was interrupted; {@code null} on success
     */
    @Nullable Throwable run() {
        try {
            while (true) {
                Outcome done = outcome;
                if (done != null && queue.isEmpty()) {
                    return done.failure();
                }
                Task task = queue.take();
                try {
                    task.action().run();
                } catch (RuntimeException | Error ex) {
                    // Tasks handle their own failures; one that leaks is a bug: fail the exchange.
                    logger.warn("Exchange task failed", ex);
                    terminate(ex);
                }
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return ex;
        } finally {
            closed = true;
            for (Task task; (task = queue.poll()) != null; ) {
                task.onDiscard().run();
            }
        }
    }

    /** Whether {@link #run()} has returned. */
    boolean isClosed() {
        return closed;
    }

    /** Identity matters ({@code queue.remove}), so this is a class, not a record. */
    private static final class Task {
        private final Runnable action;
        private final Runnable onDiscard;

        Task(Runnable action, Runnable onDiscard) {
            this.action = action;
            this.onDiscard = onDiscard;
        }

        Runnable action() {
            return action;
        }

        Runnable onDiscard() {
            return onDiscard;
        }
    }

    private record Outcome(@Nullable Throwable failure) {
    }
}
