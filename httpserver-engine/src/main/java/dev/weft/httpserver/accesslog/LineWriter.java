package dev.weft.httpserver.accesslog;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

/**
 * Takes lines off the request path: {@link #offer} puts formatted {@link Lines} on a lock-free queue bounded in
 * lines and never blocks; one platform daemon thread (it blocks on disk I/O) takes them in batches, writes them to
 * the {@link Destination} and flushes it once the queue has been quiet for the flush interval, or the interval has
 * passed since the last flush.
 * Under load the writer collects what came for a {@value #LINGER_MILLIS} ms before it looks again, so that a
 * request thread wakes it only after a quiet spell, never once per line. A line that finds the queue full is dropped
 * and counted (all lines of what was offered together). {@link #close()} writes every queued line, then closes the
 * destination.
 */
final class LineWriter {

    private static final System.Logger LOG = System.getLogger(LineWriter.class.getName());
    private static final int BATCH = 512;
    /** How long the writer waits for more lines after a batch before it sleeps until a request thread wakes it. */
    private static final long LINGER_MILLIS = 2;

    private final Queue<Lines> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final int capacity;
    private final Destination destination;
    private final long flushNanos;
    private final IntConsumer onDrop;
    private final AtomicLong dropped = new AtomicLong();
    /** Whether the writer sleeps until a line comes: the first line offered then wakes it. */
    private final AtomicBoolean sleeping = new AtomicBoolean();
    private volatile boolean closing;
    private volatile Thread thread;
    /** Writer thread only: whether the last write failed (logged once until one succeeds). */
    private boolean failing;

    /**
     * @param capacity      most lines waiting to be written
     * @param flushInterval longest a written line waits to be flushed
     * @param onDrop        told how many lines were dropped (the server's statistics)
     */
    LineWriter(Destination destination, int capacity, Duration flushInterval, IntConsumer onDrop) {
        this.capacity = capacity;
        this.destination = destination;
        this.flushNanos = flushInterval.toNanos();
        this.onDrop = onDrop;
    }

    /** Opens the destination and starts the writer thread named {@code name}. */
    void start(String name) throws IOException {
        destination.open();
        thread = Thread.ofPlatform().daemon(true).name(name).start(this::run);
    }

    /** Queues {@code lines}; if they do not fit in the queue, drops and counts them. Never blocks. */
    void offer(Lines lines) {
        int count = lines.count();
        if (closing || queued.addAndGet(count) > capacity) {
            if (!closing) {
                queued.addAndGet(-count);
            }
            long n = dropped.addAndGet(count);
            onDrop.accept(count);
            LOG.log(Level.DEBUG, () -> "access log queue full: " + count + " lines dropped (" + n + " so far)");
            return;
        }
        queue.offer(lines);
        if (sleeping.get() && sleeping.compareAndSet(true, false)) {
            LockSupport.unpark(thread);
        }
    }

    /** Lines dropped so far. */
    long dropped() {
        return dropped.get();
    }

    /**
     * Writes what is queued, flushes and closes the destination; waits for that up to {@code limit}. Lines offered
     * from now on are dropped. Idempotent.
     */
    void close(Duration limit) {
        closing = true;
        Thread t = thread;
        if (t == null) {
            return;
        }
        LockSupport.unpark(t);
        try {
            t.join(limit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (t.isAlive()) {
            LOG.log(Level.WARNING, "access log writer did not finish within " + limit + "; lines may be lost");
        }
    }

    private void run() {
        List<Lines> batch = new ArrayList<>(BATCH);
        long lastFlush = System.nanoTime();
        boolean dirty = false;
        try {
            while (true) {
                boolean wrote = drain(batch);
                dirty |= wrote;
                long now = System.nanoTime();
                boolean last = closing && queue.isEmpty();
                if (dirty && (!wrote || last || now - lastFlush >= flushNanos)) {
                    flush();
                    dirty = false;
                    lastFlush = now;
                }
                if (last) {
                    break;
                }
                if (wrote) {
                    LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(LINGER_MILLIS));
                } else {
                    sleepUntilOffered();
                }
            }
        } finally {
            try {
                destination.close();
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.WARNING, "closing access log " + destination + " failed", e);
            }
        }
    }

    /** Writes what is queued, in batches; whether there was anything. */
    private boolean drain(List<Lines> batch) {
        boolean any = false;
        for (Lines lines; (lines = queue.poll()) != null; ) {
            queued.addAndGet(-lines.count());
            batch.add(lines);
            if (batch.size() == BATCH) {
                write(batch);
                batch.clear();
            }
            any = true;
        }
        if (!batch.isEmpty()) {
            write(batch);
            batch.clear();
        }
        return any;
    }

    /** Parks until a line is offered or the server closes; a line queued meanwhile is never missed. */
    private void sleepUntilOffered() {
        sleeping.set(true);
        if (!queue.isEmpty() || closing) {
            sleeping.set(false);
            return;
        }
        while (sleeping.get() && !closing) {
            LockSupport.park(this);
            Thread.interrupted(); // only close() ends the writer
        }
    }

    private void write(List<Lines> batch) {
        try {
            destination.write(batch);
            failing = false;
        } catch (IOException | RuntimeException e) {
            int lost = batch.stream().mapToInt(Lines::count).sum();
            fault("writing to access log " + destination + " failed; up to " + lost + " lines lost", e);
        }
    }

    private void flush() {
        try {
            destination.flush();
        } catch (IOException | RuntimeException e) {
            fault("flushing access log " + destination + " failed", e);
        }
    }

    /** A real fault: WARNING the first time, DEBUG while it lasts. */
    private void fault(String message, Exception e) {
        LOG.log(failing ? Level.DEBUG : Level.WARNING, message, e);
        failing = true;
    }
}
