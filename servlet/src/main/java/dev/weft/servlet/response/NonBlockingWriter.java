package dev.weft.servlet.response;

import dev.weft.servlet.context.WeftServletContext;
import jakarta.servlet.WriteListener;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Non-blocking output (Servlet 6.1 §5.3) over the engine's blocking stream: a virtual thread owns the blocking
 * writes and calls the {@link WriteListener}. {@code onWritePossible} is called once when the listener is set,
 * then again only after {@link #isReady()} answered false and the write in flight has completed. A write from
 * another thread is copied and handed to that thread, and {@code isReady()} is false until it is written; a
 * write made inside a callback (on that thread) simply blocks, so {@code isReady()} stays true there. Callbacks
 * never run concurrently, and no lock is held while they run.
 */
final class NonBlockingWriter {


    private final ResponseOutput output;
    private final WriteListener listener;
    private final WeftServletContext context;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private Thread thread;
    private byte[] pending;
    /** Flushes asked for and flushes done: one asked for while another is under way is not lost. */
    private long flushesAsked;
    private long flushesDone;
    private boolean armed;
    private boolean failed;
    private boolean stopped;

    NonBlockingWriter(ResponseOutput output, WriteListener listener, WeftServletContext context) {
        this.output = output;
        this.listener = listener;
        this.context = context;
    }

    void start() {
        thread = Thread.ofVirtual().name("weft-servlet-write").start(this::run);
    }

    boolean onDriverThread() {
        return Thread.currentThread() == thread;
    }

    boolean isReady() {
        lock.lock();
        try {
            if (failed) {
                return false;
            }
            if (pending != null || flushesAsked > flushesDone) {
                armed = true;
                return false;
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    void write(byte[] b, int off, int len) throws IOException {
        lock.lock();
        try {
            if (failed) {
                throw new IOException("a previous non-blocking write failed");
            }
            if (pending != null) {
                throw new IllegalStateException("write while isReady() is false: the previous write is still pending");
            }
            pending = Arrays.copyOfRange(b, off, off + len);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    void flush() throws IOException {
        lock.lock();
        try {
            if (failed) {
                throw new IOException("a previous non-blocking write failed");
            }
            flushesAsked++;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits until nothing is pending, then lets the driver thread end. */
    void awaitIdle() {
        lock.lock();
        try {
            while ((pending != null || flushesAsked > flushesDone) && !failed) {
                changed.awaitUninterruptibly();
            }
            stopped = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        if (!callback()) {
            return;
        }
        while (true) {
            byte[] data;
            long flushTo;
            lock.lock();
            try {
                while (pending == null && flushesAsked == flushesDone && !stopped) {
                    changed.awaitUninterruptibly();
                }
                if (pending == null && flushesAsked == flushesDone) {
                    return;
                }
                data = pending;
                flushTo = flushesAsked;
            } finally {
                lock.unlock();
            }
            try {
                if (data != null) {
                    output.writeBlocking(data, 0, data.length);
                }
                if (flushTo > flushesDone) {
                    output.flushBlocking();
                }
            } catch (IOException | RuntimeException e) {
                fail(e);
                return;
            }
            boolean notify;
            lock.lock();
            try {
                if (data != null) {
                    pending = null;
                }
                flushesDone = flushTo;
                notify = armed;
                armed = false;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
            if (notify && !callback()) {
                return;
            }
        }
    }

    /** Calls {@code onWritePossible}; false if it threw (then {@code onError} was called). */
    private boolean callback() {
        try {
            context.runAsApplication(listener::onWritePossible);
            return true;
        } catch (Exception e) {
            fail(e);
            return false;
        }
    }

    private void fail(Throwable t) {
        lock.lock();
        try {
            failed = true;
            pending = null;
            flushesDone = flushesAsked;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        context.runCallback(() -> listener.onError(t), "WriteListener.onError");
    }
}
