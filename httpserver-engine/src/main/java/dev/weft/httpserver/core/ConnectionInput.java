package dev.weft.httpserver.core;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;

/**
 * The buffered byte source of one connection. Parsers work directly on {@link #buffer()} between
 * {@link #position()} and {@link #limit()} and call {@link #fill()} for more; body streams read through it.
 *
 * <p>Reads are bounded either by an absolute deadline (a header section must arrive by then) or by a
 * per-read timeout (each read of a body may wait that long). Socket reads themselves are untimed (a timed
 * read costs a timer per read on a virtual thread); the {@link ConnectionRegistry} sweeper calls
 * {@link #expireIfOverdue(long)} and shuts the input down when a read is overdue, and the blocked read then
 * fails with {@link SocketTimeoutException}. Owned by the connection's thread.
 */
public final class ConnectionInput extends InputStream {

    private static final java.lang.invoke.VarHandle BLOCKED_UNTIL;

    static {
        try {
            BLOCKED_UNTIL = java.lang.invoke.MethodHandles.lookup()
                    .findVarHandle(ConnectionInput.class, "blockedUntilNanos", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final byte[] EMPTY = new byte[0];

    private final InputStream in;
    private final int maxBufferSize;
    private byte[] buf;
    private int pos;
    private int limit;
    /** Volatile: HTTP/2 moves it from stream threads ({@link #moveDeadline}). */
    private volatile long deadlineNanos;
    private long readTimeoutNanos;
    private boolean eof;
    /** After {@link #releaseBuffer()}: reads that find the buffer empty go straight to the socket. */
    private boolean released;
    private long bytesRead;
    /** When the read in progress is overdue ({@link System#nanoTime()}), or 0 when no read is blocked. */
    private volatile long blockedUntilNanos;
    private volatile boolean timedOut;
    /** Output whose buffered bytes are sent before a read blocks (HTTP/1.1), or null. */
    private ConnectionOutput flushBeforeBlocking;

    /**
     * @param initialSize   starting buffer size
     * @param maxBufferSize largest the buffer may grow to hold one line or frame
     */
    public ConnectionInput(InputStream in, int initialSize, int maxBufferSize) {
        this.in = in;
        this.maxBufferSize = Math.max(initialSize, maxBufferSize);
        this.buf = new byte[initialSize];
    }

    /** The buffer; valid bytes are from {@link #position()} to {@link #limit()}. */
    public byte[] buffer() {
        return buf;
    }

    /** Index of the next unread byte. */
    public int position() {
        return pos;
    }

    /** Index after the last valid byte. */
    public int limit() {
        return limit;
    }

    /** Bytes buffered and not yet consumed. */
    public int buffered() {
        return limit - pos;
    }

    /** Marks bytes up to {@code newPosition} as consumed. */
    public void position(int newPosition) {
        if (newPosition < pos || newPosition > limit) {
            throw new IndexOutOfBoundsException(newPosition);
        }
        pos = newPosition;
    }

    /**
     * Shrinks the buffer to the bytes not consumed yet (to nothing when there are none), for a protocol
     * handler that buffers the switched stream itself (WebSocket): an idle connection then keeps no buffer,
     * and reads that find it empty go straight to the socket. A later {@link #fill()} allocates afresh.
     */
    public void releaseBuffer() {
        buf = limit > pos ? java.util.Arrays.copyOfRange(buf, pos, limit) : EMPTY;
        limit -= pos;
        pos = 0;
        released = true;
    }

    /**
     * Makes every read that has to wait for the socket first send what {@code out} has buffered, so that a
     * finished response never waits for more input (a pipelined batch still leaves in one write when its
     * requests are all buffered already); {@code null} turns it off. For protocols where the reading thread
     * owns the output whenever it reads (HTTP/1.1).
     */
    public void flushBeforeBlocking(ConnectionOutput out) {
        flushBeforeBlocking = out;
    }

    /** Every read from now on must complete before this {@link System#nanoTime()} value. */
    public void deadline(long nanoTime) {
        deadlineNanos = nanoTime == 0 ? 1 : nanoTime;
    }

    /**
     * Moves the deadline from another thread, including that of a read blocked now; HTTP/2 uses it to start
     * the idle timeout when its last stream closes while the reader waits for frames.
     */
    public void moveDeadline(long nanoTime) {
        long d = nanoTime == 0 ? 1 : nanoTime;
        deadlineNanos = d;
        long blocked = blockedUntilNanos;
        if (blocked != 0) {
            BLOCKED_UNTIL.compareAndSet(this, blocked, d);
        }
    }

    /** Each read from now on may block at most this long. */
    public void readTimeout(int millis) {
        readTimeoutNanos(millis * 1_000_000L);
    }

    /** Each read from now on may block at most this many nanoseconds. */
    public void readTimeoutNanos(long nanos) {
        readTimeoutNanos = nanos;
        deadlineNanos = 0;
    }

    /** Bytes read from the socket since the last call; for batching statistics updates. */
    public long takeBytesRead() {
        long n = bytesRead;
        bytesRead = 0;
        return n;
    }

    /**
     * Marks a blocked read as timed out if it is overdue; the caller then shuts the socket's input down to
     * wake it. Called by the sweeper thread.
     *
     * @return whether the read timed out
     */
    boolean expireIfOverdue(long now) {
        long until = blockedUntilNanos;
        if (until != 0 && now - until > 0) {
            timedOut = true;
            return true;
        }
        return false;
    }

    /**
     * Reads more bytes into the buffer, keeping the unread ones; grows the buffer (up to its maximum) when it
     * is full of unread bytes.
     *
     * @return bytes added, or -1 at end of stream
     * @throws BufferFullException when the unread bytes already fill a buffer of the maximum size
     */
    public int fill() throws IOException {
        if (eof) {
            return -1;
        }
        if (pos > 0 && (limit == buf.length || pos == limit)) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        }
        if (limit == buf.length) {
            if (buf.length >= maxBufferSize) {
                throw new BufferFullException();
            }
            byte[] bigger = new byte[Math.min(maxBufferSize, Math.max(1024, buf.length * 2))];
            System.arraycopy(buf, 0, bigger, 0, limit);
            buf = bigger;
        }
        int n = socketRead(buf, limit, buf.length - limit);
        if (n < 0) {
            return -1;
        }
        limit += n;
        return n;
    }

    /** One blocking read from the socket under the current deadline or timeout. */
    private int socketRead(byte[] b, int off, int len) throws IOException {
        ConnectionOutput pending = flushBeforeBlocking;
        if (pending != null && pending.pending() > 0) {
            pending.flush();
        }
        long now = System.nanoTime();
        long until = deadlineNanos != 0 ? deadlineNanos : now + readTimeoutNanos;
        if (timedOut || until - now <= 0) {
            throw new SocketTimeoutException("read timed out");
        }
        blockedUntilNanos = until == 0 ? 1 : until;
        long moved = deadlineNanos;
        if (moved != 0 && moved != until) {
            // moveDeadline ran between reading the deadline and publishing it: apply its value.
            BLOCKED_UNTIL.compareAndSet(this, until == 0 ? 1 : until, moved);
        }
        int n;
        try {
            n = in.read(b, off, len);
        } catch (IOException e) {
            if (timedOut) {
                throw new SocketTimeoutException("read timed out");
            }
            throw e;
        } finally {
            blockedUntilNanos = 0;
        }
        if (n < 0) {
            if (timedOut) {
                throw new SocketTimeoutException("read timed out");
            }
            eof = true;
            return -1;
        }
        bytesRead += n;
        return n;
    }

    @Override
    public int read() throws IOException {
        if (pos == limit && fill() < 0) {
            return -1;
        }
        return buf[pos++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (pos == limit) {
            if (released && buf.length > 0) {
                buf = EMPTY; // the bytes kept at the release are consumed
                pos = 0;
                limit = 0;
            }
            if (len >= buf.length) {
                // Large reads bypass the buffer.
                if (eof) {
                    return -1;
                }
                return socketRead(b, off, len);
            }
            if (fill() < 0) {
                return -1;
            }
        }
        int n = Math.min(len, limit - pos);
        System.arraycopy(buf, pos, b, off, n);
        pos += n;
        return n;
    }

    @Override
    public int available() {
        return limit - pos;
    }

    /** Closing is the connection's job; this does nothing. */
    @Override
    public void close() {
    }

    /** Thrown by {@link #fill()} when one unit (line, frame) does not fit the largest allowed buffer. */
    public static final class BufferFullException extends IOException {
        BufferFullException() {
            super("input buffer full", null);
        }
    }
}
