package dev.weft.httpserver.http2;

import com.sun.net.httpserver.Headers;
import dev.weft.httpserver.core.ClientClosedException;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The request body of one stream: DATA payloads the reader hands over, read by the handler. What the
 * handler consumes is returned to the client's stream window, so a slow handler only slows its own stream;
 * at most one window of data is ever buffered.
 *
 * <p>A read waits for data at most the body-read timeout, and no longer than the minimum request rate allows
 * (a {@link WaitAllowance} charged with the time reads wait and credited with every byte received).
 */
final class Http2RequestBody extends InputStream {

    /** What the body needs from its stream. */
    interface Owner {
        /** Called once, before the first read blocks or returns data (sends {@code 100 Continue}). */
        void beforeFirstRead() throws IOException;

        /** The handler consumed {@code n} octets: return them to the client's stream window. */
        void consumed(int n) throws IOException;

        /** A read waited longer than the body-read timeout. */
        void readTimedOut();

        /** The body arrives slower than the minimum request rate allows. */
        void readTooSlow();
    }

    private final Owner owner;
    private volatile long readTimeoutNanos;
    /** The minimum rate's account, or null without one (a tunnel's reads wait for messages). Guarded by lock. */
    private WaitAllowance allowance;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    // Guarded by lock. The queue and the trailers are made when needed: most requests carry no body.
    private ArrayDeque<byte[]> chunks;
    private byte[] current;
    private int pos;
    private boolean ended;
    private boolean closed;
    private IOException failure;
    private Headers trailers;
    private boolean started;
    private byte[] single;

    /**
     * @param ended     whether the request has no body at all (END_STREAM on its HEADERS)
     * @param allowance the minimum rate's account, or null for none
     */
    Http2RequestBody(Owner owner, long readTimeoutNanos, boolean ended, WaitAllowance allowance) {
        this.owner = owner;
        this.readTimeoutNanos = readTimeoutNanos;
        this.ended = ended;
        this.allowance = allowance;
    }

    /** Sets how long one read may wait for data, zero without limit; the minimum rate no longer applies. */
    void readTimeout(long nanos) {
        readTimeoutNanos = nanos == 0 ? Long.MAX_VALUE : nanos;
        lock.lock();
        try {
            allowance = null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Adds a DATA payload (reader thread).
     *
     * @return false if the handler closed the body, so the octets were dropped and are the caller's to
     *         return to the window
     */
    boolean offer(byte[] data) {
        lock.lock();
        try {
            if (closed || failure != null) {
                return false;
            }
            if (data.length > 0) {
                if (allowance != null) {
                    allowance.moved(data.length);
                }
                if (chunks == null) {
                    chunks = new ArrayDeque<>(4);
                }
                chunks.add(data);
                arrived.signal();
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The client ended the body, with these trailers or {@code null} (reader thread). */
    void end(Headers trailerFields) {
        lock.lock();
        try {
            ended = true;
            trailers = trailerFields;
            arrived.signal();
        } finally {
            lock.unlock();
        }
    }

    /** The body cannot complete: reads fail with {@code cause} once the buffered data is consumed. */
    void fail(IOException cause) {
        lock.lock();
        try {
            if (failure == null) {
                failure = cause;
            }
            arrived.signal();
        } finally {
            lock.unlock();
        }
    }

    /** The trailers once the body has been read to its end (empty when there were none), else null. */
    Headers trailers() {
        lock.lock();
        try {
            if (!ended || current != null || !isEmpty(chunks)) {
                return null;
            }
            if (trailers == null) {
                trailers = new Headers();
            }
            return trailers;
        } finally {
            lock.unlock();
        }
    }

    boolean isEnded() {
        lock.lock();
        try {
            return ended;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int read() throws IOException {
        if (single == null) {
            single = new byte[1];
        }
        int n = read(single, 0, 1);
        return n < 0 ? -1 : single[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        firstRead();
        int n;
        boolean tooSlow = false;
        IOException expired = null;
        lock.lock();
        try {
            long left = readTimeoutNanos;
            while (current == null) {
                current = chunks == null ? null : chunks.poll();
                pos = 0;
                if (current != null) {
                    break;
                }
                if (closed) {
                    throw new IOException("request body stream is closed");
                }
                if (failure != null) {
                    throw failure instanceof ClientClosedException
                            ? new ClientClosedException(failure.getMessage(), failure)
                            : new IOException(failure.getMessage(), failure);
                }
                if (ended) {
                    return -1;
                }
                if (left <= 0) {
                    failure = expired = new SocketTimeoutException("request body not received in time");
                    break;
                }
                long allowed = allowance == null ? WaitAllowance.UNLIMITED : allowance.remainingNanos();
                if (allowed <= 0) {
                    failure = expired = new ClientClosedException("request body arrives slower than "
                            + allowance.bytesPerSecond() + " bytes/s");
                    tooSlow = true;
                    break;
                }
                long wait = Math.min(left, allowed);
                long remaining = arrived.awaitNanos(wait);
                left -= wait - remaining;
                if (allowance != null) {
                    allowance.waited(wait - remaining);
                }
            }
            if (current != null) {
                n = Math.min(len, current.length - pos);
                System.arraycopy(current, pos, b, off, n);
                pos += n;
                if (pos == current.length) {
                    current = null;
                }
            } else {
                n = -1;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading the request body", e);
        } finally {
            lock.unlock();
        }
        if (n < 0) {
            // the wait ran out: tell the stream outside the body's lock (it resets the stream), then fail
            if (tooSlow) {
                owner.readTooSlow();
            } else {
                owner.readTimedOut();
            }
            throw expired;
        }
        owner.consumed(n);
        return n;
    }

    private void firstRead() throws IOException {
        boolean first;
        lock.lock();
        try {
            first = !started;
            started = true;
        } finally {
            lock.unlock();
        }
        if (first) {
            owner.beforeFirstRead();
        }
    }

    private static boolean isEmpty(ArrayDeque<byte[]> chunks) {
        return chunks == null || chunks.isEmpty();
    }

    /** Reads to the end; returns at once, without a buffer, for a request that carries no body. */
    @Override
    public byte[] readAllBytes() throws IOException {
        lock.lock();
        try {
            if (ended && current == null && isEmpty(chunks) && !closed) {
                started = true;
                return new byte[0];
            }
        } finally {
            lock.unlock();
        }
        return super.readAllBytes();
    }

    @Override
    public int available() {
        lock.lock();
        try {
            int n = current == null ? 0 : current.length - pos;
            if (chunks != null) {
                for (byte[] c : chunks) {
                    n += c.length;
                }
            }
            return n;
        } finally {
            lock.unlock();
        }
    }

    /** Drops what is buffered; data that arrives later is dropped too. */
    @Override
    public void close() {
        int dropped;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            dropped = current == null ? 0 : current.length - pos;
            if (chunks != null) {
                for (byte[] c : chunks) {
                    dropped += c.length;
                }
                chunks.clear();
            }
            current = null;
        } finally {
            lock.unlock();
        }
        if (dropped > 0) {
            try {
                owner.consumed(dropped);
            } catch (IOException ignored) {
                // the stream is going away
            }
        }
    }
}
