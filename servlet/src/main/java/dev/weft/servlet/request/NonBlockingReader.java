package dev.weft.servlet.request;

import dev.weft.servlet.context.WeftServletContext;
import jakarta.servlet.ReadListener;

import java.io.IOException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Non-blocking input (Servlet 6.1 §3.7) over the engine's blocking stream: a virtual thread reads ahead one
 * chunk at a time and calls the {@link ReadListener}. {@code onDataAvailable} is called the first time data is
 * there, then again only after {@link #isReady()} answered false and more data has arrived;
 * {@code onAllDataRead} once the body has ended and every byte was read. {@code isReady()} is true while read
 * data waits in the chunk (or the body has ended); a read when it is false is an {@link IllegalStateException}.
 * Callbacks never run concurrently and no lock is held while they run.
 */
final class NonBlockingReader {


    private final RequestInput input;
    private final ReadListener listener;
    private final WeftServletContext context;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final byte[] chunk = new byte[8192];
    private int pos;
    private int lim;
    private boolean eof;
    private boolean armed = true;
    private boolean failed;

    NonBlockingReader(RequestInput input, ReadListener listener, WeftServletContext context) {
        this.input = input;
        this.listener = listener;
        this.context = context;
    }

    void start() {
        Thread.ofVirtual().name("weft-servlet-read").start(this::run);
    }

    boolean isReady() {
        lock.lock();
        try {
            if (failed) {
                return false;
            }
            if (pos < lim || eof) {
                return true;
            }
            armed = true;
            changed.signalAll();
            return false;
        } finally {
            lock.unlock();
        }
    }

    boolean isFinished() {
        lock.lock();
        try {
            return eof && pos == lim;
        } finally {
            lock.unlock();
        }
    }

    int available() {
        lock.lock();
        try {
            return lim - pos;
        } finally {
            lock.unlock();
        }
    }

    int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        lock.lock();
        try {
            if (failed) {
                throw new IOException("reading the request body failed");
            }
            if (pos < lim) {
                int n = Math.min(len, lim - pos);
                System.arraycopy(chunk, pos, b, off, n);
                pos += n;
                if (pos == lim) {
                    changed.signalAll();
                }
                return n;
            }
            if (eof) {
                changed.signalAll();
                return -1;
            }
            throw new IllegalStateException("read while isReady() is false");
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        boolean allDataReadCalled = false;
        while (true) {
            // wait until the application wants more data (or has drained the chunk after the end)
            boolean fill;
            lock.lock();
            try {
                while (!armed && !(eof && pos == lim)) {
                    changed.awaitUninterruptibly();
                }
                fill = pos == lim && !eof;
            } finally {
                lock.unlock();
            }
            if (fill) {
                int n;
                try {
                    n = input.readRaw(chunk, 0, chunk.length);
                } catch (IOException e) {
                    fail(e);
                    return;
                }
                lock.lock();
                try {
                    pos = 0;
                    lim = Math.max(n, 0);
                    eof = n < 0;
                } finally {
                    lock.unlock();
                }
            }
            boolean allRead;
            lock.lock();
            try {
                armed = false;
                allRead = eof && pos == lim;
            } finally {
                lock.unlock();
            }
            if (allRead) {
                if (!allDataReadCalled) {
                    allDataReadCalled = true;
                    if (!invoke(listener::onAllDataRead)) {
                        return;
                    }
                }
                return;
            }
            if (!invoke(listener::onDataAvailable)) {
                return;
            }
        }
    }

    private boolean invoke(dev.weft.servlet.context.ApplicationCall call) {
        try {
            context.runAsApplication(call);
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
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        context.runCallback(() -> listener.onError(t), "ReadListener.onError");
    }
}
