package dev.weft.httpserver.accesslog;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Takes lines off the request path: {@link #offer} puts a line on a bounded queue and never blocks; one platform
 * daemon thread (it blocks on disk I/O) takes them in batches, writes them to the {@link Destination} and flushes
 * it once the queue has been quiet for the flush interval, or the interval has passed since the last flush. A line
 * that finds the queue full is dropped and counted. {@link #close()} writes every queued line, then closes the
 * destination.
 */
final class LineWriter {

    private static final System.Logger LOG = System.getLogger(LineWriter.class.getName());
    private static final int BATCH = 512;
    /** Put on the queue to wake the writer for {@link #close()}; never written. */
    private static final String WAKE = new String("wake");

    private final BlockingQueue<String> queue;
    private final Destination destination;
    private final long flushNanos;
    private final Runnable onDrop;
    private final AtomicLong dropped = new AtomicLong();
    private volatile boolean closing;
    private Thread thread;
    /** Writer thread only: whether the last write failed (logged once until one succeeds). */
    private boolean failing;

    /**
     * @param capacity      most lines waiting to be written
     * @param flushInterval longest a written line waits to be flushed
     * @param onDrop        told of each dropped line (the server's statistics)
     */
    LineWriter(Destination destination, int capacity, Duration flushInterval, Runnable onDrop) {
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.destination = destination;
        this.flushNanos = flushInterval.toNanos();
        this.onDrop = onDrop;
    }

    /** Opens the destination and starts the writer thread named {@code name}. */
    void start(String name) throws IOException {
        destination.open();
        thread = Thread.ofPlatform().daemon(true).name(name).start(this::run);
    }

    /** Queues {@code line}; if the queue is full, drops and counts it. Never blocks. */
    void offer(String line) {
        if (closing || !queue.offer(line)) {
            long n = dropped.incrementAndGet();
            onDrop.run();
            LOG.log(Level.DEBUG, () -> "access log queue full: line dropped (" + n + " so far)");
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
        queue.offer(WAKE); // if the queue is full the writer is not waiting
        Thread t = thread;
        if (t == null) {
            return;
        }
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
        List<String> batch = new ArrayList<>(BATCH);
        long lastFlush = System.nanoTime();
        boolean dirty = false;
        try {
            while (true) {
                String first = queue.poll(dirty ? flushNanos : Long.MAX_VALUE, TimeUnit.NANOSECONDS);
                if (first != null) {
                    batch.add(first);
                    queue.drainTo(batch, BATCH - 1);
                    batch.removeIf(line -> line == WAKE);
                    if (!batch.isEmpty()) {
                        write(batch);
                        dirty = true;
                        batch.clear();
                    }
                }
                long now = System.nanoTime();
                boolean last = closing && queue.isEmpty();
                if (dirty && (first == null || last || now - lastFlush >= flushNanos)) {
                    flush();
                    dirty = false;
                    lastFlush = now;
                }
                if (last) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            LOG.log(Level.DEBUG, "access log writer interrupted; closing");
        } finally {
            try {
                destination.close();
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.WARNING, "closing access log " + destination + " failed", e);
            }
        }
    }

    private void write(List<String> batch) {
        try {
            destination.write(batch);
            failing = false;
        } catch (IOException | RuntimeException e) {
            fault("writing to access log " + destination + " failed; " + batch.size() + " lines lost", e);
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
