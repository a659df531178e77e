package dev.weft.httpserver.http2;

import dev.weft.httpserver.core.ClientClosedException;

import java.io.IOException;
import java.util.Collection;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The peer's receive windows as we send (RFC 9113 §6.9): the connection window and each stream's, under
 * one lock. A stream thread that wants to send DATA waits here until both windows have room; the reader
 * opens them as WINDOW_UPDATE and SETTINGS frames arrive.
 *
 * <p>A wait for the client's credit is bounded twice: by the write timeout, and by the minimum response rate
 * (a {@link WaitAllowance}): a stream whose own window stays shut is charged on its own account, one that waits
 * for the connection window on the connection's (the time some stream waits for it, against the bytes the whole
 * connection moved), so that a client reading many streams at once is not charged for sharing its window.
 *
 * <p>It also tells WINDOW_UPDATEs that return credit for data we sent from those that do not (see
 * {@link #connectionUpdate} and {@link #streamUpdate}): only the second kind costs the client flood budget.
 */
final class SendFlowControl {

    /** A wait for the client's window was given up. */
    static final class WaitExpired extends IOException {
        private static final long serialVersionUID = 1L;

        /** Whether the minimum rate ended it (else the write timeout). */
        final boolean rate;

        WaitExpired(boolean rate, String message) {
            super(message);
            this.rate = rate;
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final FlowControlWindow connection = new FlowControlWindow(0, Http2Settings.DEFAULT_WINDOW_SIZE);
    private final WaitAllowance connectionAllowance;
    private boolean closed;
    /** Streams waiting for the connection window now, and since when some stream has been (0: none). */
    private int connectionWaiters;
    private long connectionShutSince;
    /**
     * Credit the client owes us for DATA we sent and has not returned yet, in bytes and in frames, for the
     * connection window and for the streams' windows together.
     */
    private long connectionOwedBytes;
    private long connectionOwedFrames;
    private long streamOwedBytes;
    private long streamOwedFrames;

    /**
     * @param minRate    the minimum response rate, bytes per second (0: none)
     * @param graceNanos how long a response may wait before the rate applies
     */
    SendFlowControl(long minRate, long graceNanos) {
        this.connectionAllowance = new WaitAllowance(minRate, graceNanos);
    }

    /**
     * Takes up to {@code max} octets from both the stream's and the connection's window, waiting until
     * both have room.
     *
     * @return the octets granted, at least 1
     * @throws WaitExpired  if the peer kept a window shut for longer than {@code timeoutNanos}, or than the
     *                      minimum rate allows
     * @throws IOException  if the stream was reset or the connection closed meanwhile
     */
    int acquire(Http2Stream stream, int max, long timeoutNanos) throws IOException {
        WaitAllowance own = stream.sendAllowance();
        lock.lock();
        try {
            long left = timeoutNanos;
            boolean headReleased = false;
            while (true) {
                if (closed) {
                    throw new ClientClosedException("connection closed");
                }
                stream.checkSendable();
                int streamRoom = stream.sendWindow().available();
                int n = Math.min(max, Math.min(streamRoom, connection.available()));
                if (n > 0) {
                    stream.sendWindow().tryConsume(n);
                    connection.tryConsume(n);
                    sent(n);
                    if (own != null) {
                        own.moved(n);
                        connectionAllowance.moved(n);
                    }
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
                left = await(streamRoom == 0 ? own : null, own != null, left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the peer's flow-control window", e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * One wait for a window, charged to {@code own} (the stream's shut window) or, if that is null and the stream
     * is paced, to the connection's account. Under the lock.
     *
     * @return the write timeout left
     */
    private long await(WaitAllowance own, boolean paced, long left) throws InterruptedException, WaitExpired {
        long now = System.nanoTime();
        boolean onConnection = own == null && paced;
        long allowed = own != null ? own.remainingNanos()
                : onConnection ? connectionAllowance.remainingNanos()
                        - (connectionWaiters > 0 ? now - connectionShutSince : 0)
                : WaitAllowance.UNLIMITED;
        if (left <= 0) {
            throw new WaitExpired(false, "peer kept its flow-control window shut");
        }
        if (allowed <= 0) {
            throw new WaitExpired(true, "peer takes the response slower than "
                    + connectionAllowance.bytesPerSecond() + " bytes/s");
        }
        if (onConnection && connectionWaiters++ == 0) {
            connectionShutSince = now;
        }
        try {
            changed.awaitNanos(Math.min(left, allowed));
        } finally {
            long spent = System.nanoTime() - now;
            if (own != null) {
                own.waited(spent);
            } else if (onConnection && --connectionWaiters == 0) {
                connectionAllowance.waited(System.nanoTime() - connectionShutSince);
            }
            left -= spent;
        }
        return left;
    }

    /** Takes {@code n} octets of the connection window if they are available now, without waiting. */
    boolean tryTakeConnectionWindow(int n) {
        lock.lock();
        try {
            if (closed || connection.available() < n) {
                return false;
            }
            connection.tryConsume(n);
            sent(n);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** One DATA frame of {@code n} flow-controlled octets is on its way to the client. Under the lock. */
    private void sent(int n) {
        connectionOwedBytes += n;
        connectionOwedFrames++;
        streamOwedBytes += n;
        streamOwedFrames++;
    }

    /**
     * A WINDOW_UPDATE for the connection.
     *
     * @return whether it returned credit for data we sent (at most one free update per DATA frame, and no more
     *         credit than the frames carried); any other update only costs the client flood budget
     */
    boolean connectionUpdate(int increment) throws Http2Exception {
        lock.lock();
        try {
            connection.increment(increment);
            changed.signalAll();
            boolean earned = increment <= connectionOwedBytes && connectionOwedFrames > 0;
            if (earned) {
                connectionOwedBytes -= increment;
                connectionOwedFrames--;
            }
            return earned;
        } finally {
            lock.unlock();
        }
    }

    /**
     * A WINDOW_UPDATE for an open stream.
     *
     * @return whether it returned credit for data we sent on the connection's streams, or was the first update
     *         of this stream (which may enlarge its window before any data); see {@link #connectionUpdate}
     */
    boolean streamUpdate(Http2Stream stream, int increment) throws Http2Exception {
        lock.lock();
        try {
            stream.sendWindow().increment(increment);
            changed.signalAll();
            return streamCredit(increment) || stream.firstWindowUpdate();
        } finally {
            lock.unlock();
        }
    }

    /**
     * A WINDOW_UPDATE for a closed stream: ignored (it may cross our END_STREAM or RST_STREAM, §5.1).
     *
     * @return whether it returned credit for data we sent (see {@link #streamUpdate})
     */
    boolean closedStreamUpdate(int increment) {
        lock.lock();
        try {
            return streamCredit(increment);
        } finally {
            lock.unlock();
        }
    }

    private boolean streamCredit(int increment) {
        boolean earned = increment <= streamOwedBytes && streamOwedFrames > 0;
        if (earned) {
            streamOwedBytes -= increment;
            streamOwedFrames--;
        }
        return earned;
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
