package dev.weft.httpserver.http2;

import dev.weft.httpserver.core.ClientClosedException;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.Collection;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The peer's receive windows as we send (RFC 9113 §6.9): the connection window and each stream's, under
 * one lock. A stream thread that wants to send DATA waits here until both windows have room; the reader
 * opens them as WINDOW_UPDATE and SETTINGS frames arrive.
 */
final class SendFlowControl {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final FlowControlWindow connection = new FlowControlWindow(0, Http2Settings.DEFAULT_WINDOW_SIZE);
    private boolean closed;

    /**
     * Takes up to {@code max} octets from both the stream's and the connection's window, waiting until
     * both have room.
     *
     * @return the octets granted, at least 1
     * @throws IOException if the stream was reset or the connection closed meanwhile, or the peer kept the
     *                     windows shut for longer than {@code timeoutNanos}
     */
    int acquire(Http2Stream stream, int max, long timeoutNanos) throws IOException {
        lock.lock();
        try {
            long left = timeoutNanos;
            boolean headReleased = false;
            while (true) {
                if (closed) {
                    throw new ClientClosedException("connection closed");
                }
                stream.checkWritable();
                int n = Math.min(max, Math.min(stream.sendWindow().available(), connection.available()));
                if (n > 0) {
                    stream.sendWindow().tryConsume(n);
                    connection.tryConsume(n);
                    return n;
                }
                if (!headReleased) {
                    // Headers are not flow-controlled: a held-back response head goes out now rather than
                    // wait with the body for a window the client may open only after seeing it.
                    headReleased = true;
                    lock.unlock();
                    try {
                        stream.flushHead();
                    } finally {
                        lock.lock();
                    }
                    continue;
                }
                if (left <= 0) {
                    throw new SocketTimeoutException("peer kept its flow-control window shut");
                }
                left = changed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the peer's flow-control window", e);
        } finally {
            lock.unlock();
        }
    }

    /** Takes {@code n} octets of the connection window if they are available now, without waiting. */
    boolean tryTakeConnectionWindow(int n) {
        lock.lock();
        try {
            if (closed || connection.available() < n) {
                return false;
            }
            connection.tryConsume(n);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** A WINDOW_UPDATE for the connection. */
    void connectionUpdate(int increment) throws Http2Exception {
        lock.lock();
        try {
            connection.increment(increment);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** A WINDOW_UPDATE for one stream. */
    void streamUpdate(Http2Stream stream, int increment) throws Http2Exception {
        lock.lock();
        try {
            stream.sendWindow().increment(increment);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The peer changed SETTINGS_INITIAL_WINDOW_SIZE: every open stream's window moves by the difference. */
    void initialWindowChanged(Collection<Http2Stream> streams, int oldSize, int newSize) throws Http2Exception {
        lock.lock();
        try {
            for (Http2Stream s : streams) {
                s.sendWindow().adjustInitialSize(oldSize, newSize);
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Wakes waiting senders, e.g. after a stream was reset, so they notice. */
    void wakeAll() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The connection is gone: every waiting and future sender fails. */
    void close() {
        lock.lock();
        try {
            closed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
