package dev.weft.spring.boot.reactive;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import java.io.EOFException;
import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;

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
    /** Run on the connection thread whenever the queue runs empty; connection thread only. */
    private IoAction whenIdle = () -> { };
    /** Told when the connection thread has waited for a task, with the time it started waiting. */
    private final LongConsumer waited;

    /**
     * @param waited called on the connection thread after it waited for a task, with the {@link System#nanoTime()}
     *               at which the wait started
     */
    ExchangeLoop(LongConsumer waited) {
        this.waited = waited;
    }

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
        return Mono.create(sink -> {
            AtomicBoolean cancelled = new AtomicBoolean();
            sink.onCancel(() -> cancelled.set(true));
            execute(() -> {
                try {
                    action.run();
                } catch (Throwable ex) {
                    if (!cancelled.get()) {
                        sink.error(ex);
                    }
                    return;
                }
                sink.success();
            }, () -> {
                onDiscard.run();
                if (!cancelled.get()) {
                    // An EOFException, as a server whose client went away reports it: the exchange ended (the client
                    // left, or the server stopped), and Spring logs it as such, not as an error.
                    sink.error(new EOFException("The exchange is over"));
                }
            });
        });
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
     * Sets what the connection thread does whenever it has run every task queued: the response sends what it
     * has written (a streamed body whose next part is not ready yet never waits in a buffer), while a body
     * written in one go still leaves in one write with the end of the response queued right behind it.
     */
    void whenIdle(IoAction action) {
        whenIdle = action;
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
                Task task = queue.poll();
                if (task == null) {
                    long waitStarted = System.nanoTime();
                    task = queue.take();
                    waited.accept(waitStarted);
                }
                try {
                    task.action().run();
                    if (queue.isEmpty() && outcome == null) {
                        whenIdle.run(); // (once the outcome is known, completing the exchange sends the rest)
                    }
                } catch (IOException ex) {
                    terminate(ex);
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
