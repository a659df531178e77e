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
 * fails with {@link SocketTimeoutException}. The sweeper cuts a read the same way when a request body
 * arrives slower than its minimum rate ({@link TooSlowException}, measured by a {@link DataRateMeter} over
 * the time body reads block), or when the connection is closed to make room for another
 * ({@link EvictedException}).
 *
 * <p>What a blocked read waits for tells the sweeper what the connection is doing: {@link #idleDeadline}
 * marks a wait for a new request (an idle keep-alive connection), {@link #requestDeadline} and
 * {@link #bodyReadTimeout} a request the client has begun (stalled if nothing arrives), and the other
 * setters anything else (a raw upgraded connection, HTTP/2 with open streams). Owned by the connection's
 * thread.
 */
public final class ConnectionInput extends InputStream {

    private static final java.lang.invoke.VarHandle BLOCKED_UNTIL;

    private static final java.lang.invoke.VarHandle CUT;

    static {
        try {
            BLOCKED_UNTIL = java.lang.invoke.MethodHandles.lookup()
                    .findVarHandle(ConnectionInput.class, "blockedUntilNanos", long.class);
            CUT = java.lang.invoke.MethodHandles.lookup().findVarHandle(ConnectionInput.class, "cut", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final byte[] EMPTY = new byte[0];

    /** What a blocked read waits for ({@link #waitKind}). */
    private static final int OTHER = 0;
    private static final int IDLE = 1;
    private static final int REQUEST = 2;

    /** Why reads fail from now on ({@link #cut}): not at all, timed out, too slow, evicted. */
    private static final int NOT_CUT = 0;
    private static final int TIMED_OUT = 1;
    private static final int TOO_SLOW = 2;
    private static final int EVICTED = 3;

    private final InputStream in;
    private final int maxBufferSize;
    /** Lends the buffer of a request that outgrows {@link #idleBuf}; null: the buffer only grows. */
    private final BufferPool pool;
    /** The small buffer reads use while the connection waits for a request ({@link #park()}); or null. */
    private final byte[] idleBuf;
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
    // Published by the write of blockedUntilNanos when a read blocks (moveIdleDeadline: by its CAS of it).
    /** The thread of the read in progress, or of the last read. */
    private volatile Thread reader;
    /** When the read in progress started. */
    private long blockedSinceNanos;
    /** What reads wait for: {@link #IDLE}, {@link #REQUEST} or {@link #OTHER}. */
    private int waitKind;
    /** When the connection began to wait for a new request, while {@link #waitKind} is {@link #IDLE}. */
    private long idleSinceNanos;
    private volatile int cut;
    /** Output whose buffered bytes are sent before a read blocks (HTTP/1.1), or null. */
    private ConnectionOutput flushBeforeBlocking;
    /** The reading connection thread's turn, checked before a socket read; or null. */
    private CarrierTurn turn;
    /** Measures request bodies against their minimum rate, or null when there is none. */
    private DataRateMeter bodyMeter;
    /** Whether reads now are of a request body ({@link #bodyReadTimeout}) and go through {@link #bodyMeter}. */
    private boolean metering;

    /**
     * @param initialSize   starting buffer size
     * @param maxBufferSize largest the buffer may grow to hold one line or frame
     */
    public ConnectionInput(InputStream in, int initialSize, int maxBufferSize) {
        this.in = in;
        this.maxBufferSize = Math.max(initialSize, maxBufferSize);
        this.buf = new byte[initialSize];
        this.pool = null;
        this.idleBuf = null;
    }

    /**
     * An input that reads into a small buffer of its own, of {@code idleSize} bytes, until more than that is
     * needed at once: then into one of {@code pool}'s, given back when the connection waits for its next request
     * ({@link #park()}). A request that fits in the small buffer never touches the pool.
     *
     * @param maxBufferSize largest the buffer may grow to hold one line or frame
     */
    public ConnectionInput(InputStream in, BufferPool pool, int idleSize, int maxBufferSize) {
        if (idleSize < 1 || idleSize >= pool.arraySize()) {
            throw new IllegalArgumentException("idle buffer of " + idleSize + " bytes, pool's of " + pool.arraySize());
        }
        this.in = in;
        this.maxBufferSize = Math.max(pool.arraySize(), maxBufferSize);
        this.pool = pool;
        this.idleBuf = new byte[idleSize];
        this.buf = idleBuf;
    }

    /**
     * The connection waits for its next request with nothing unread: a buffer from the pool goes back to it (a
     * larger one is dropped), and reads use the small buffer again. Only the reading thread may call it.
     */
    public void park() {
        if (idleBuf == null || buf == idleBuf || released || pos != limit) {
            return;
        }
        if (buf.length == pool.arraySize()) {
            pool.give(buf);
        }
        buf = idleBuf;
        pos = 0;
        limit = 0;
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
        byte[] held = buf;
        buf = limit > pos ? java.util.Arrays.copyOfRange(buf, pos, limit) : EMPTY;
        if (pool != null && held != idleBuf && held.length == pool.arraySize()) {
            pool.give(held);
        }
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

    /**
     * Makes socket reads first give the carrier away when {@code turn}'s thread reads and its slice is over: a
     * handler reading a request body that keeps arriving lets the other connections in.
     */
    public void turn(CarrierTurn turn) {
        this.turn = turn;
    }

    /** Measures request body reads ({@link #bodyReadTimeout}) with {@code meter}; null for no minimum rate. */
    public void bodyMeter(DataRateMeter meter) {
        bodyMeter = meter;
    }

    /** Every read from now on must complete before this {@link System#nanoTime()} value. */
    public void deadline(long nanoTime) {
        deadlineNanos = nanoTime == 0 ? 1 : nanoTime;
        waitKind = OTHER;
        metering = false;
    }

    /**
     * Reads from now on wait for a new request, from {@code now} for at most {@code timeoutNanos}: the
     * connection is idle, and may be closed early when the server is short of connections.
     */
    public void idleDeadline(long now, long timeoutNanos) {
        deadline(now + timeoutNanos);
        idleSinceNanos = now;
        waitKind = IDLE;
    }

    /**
     * Like {@link #idleDeadline} from another thread, including for a read blocked now; HTTP/2 uses it when
     * its last stream closes while the reader waits for frames.
     */
    public void moveIdleDeadline(long now, long timeoutNanos) {
        idleSinceNanos = now;
        waitKind = IDLE;
        moveDeadline(now + timeoutNanos);
    }

    /**
     * Reads from now on are of a request the client has begun (its header section, or an unread body being
     * discarded) and must complete before this {@link System#nanoTime()} value. A read blocked in one is
     * stalled on the client.
     */
    public void requestDeadline(long nanoTime) {
        deadline(nanoTime);
        waitKind = REQUEST;
    }

    /**
     * Reads from now on are of a request body: each may block at most {@code nanos}, and together they are
     * held to the minimum rate of the {@link #bodyMeter}.
     */
    public void bodyReadTimeout(long nanos) {
        readTimeoutNanos = nanos;
        deadlineNanos = 0;
        waitKind = REQUEST;
        metering = bodyMeter != null;
    }

    /** Starts measuring a new request body against the minimum rate; call before its first read. */
    public void restartBodyMeter() {
        if (bodyMeter != null) {
            bodyMeter.restart();
        }
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
        waitKind = OTHER;
        metering = false;
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
        if (until != 0 && now - until > 0 && !CarrierTurn.wokenUp(reader)) {
            CUT.compareAndSet(this, NOT_CUT, TIMED_OUT);
            return true;
        }
        return false;
    }

    /**
     * Marks a blocked request body read as cut if the body has fallen below its minimum rate; the caller
     * then shuts the socket's input down to wake it. Called by the sweeper thread.
     *
     * @return whether the read was cut
     */
    boolean expireIfTooSlow(long now) {
        DataRateMeter m = bodyMeter;
        return m != null && m.tooSlow(now) && !CarrierTurn.wokenUp(reader)
                && CUT.compareAndSet(this, NOT_CUT, TOO_SLOW);
    }

    /**
     * Since when a read has been blocked waiting for a new request ({@link System#nanoTime()}), or 0 if none
     * is; any thread.
     */
    long idleSince() {
        if (blockedUntilNanos == 0 || CarrierTurn.wokenUp(reader)) {
            return 0;
        }
        long since = idleSinceNanos;
        return waitKind == IDLE && since != 0 ? since : 0;
    }

    /**
     * Since when a read of a request the client has begun has been blocked ({@link System#nanoTime()}), or 0
     * if none is; any thread.
     */
    long stalledSince() {
        if (blockedUntilNanos == 0 || CarrierTurn.wokenUp(reader)) {
            return 0;
        }
        long since = blockedSinceNanos;
        return waitKind == REQUEST ? since : 0;
    }

    /**
     * Since when a request body being read now has kept the server waiting, if it is below its minimum rate
     * even without the grace period (see {@link DataRateMeter#behindSince}), or 0; any thread.
     */
    long behindSince(long now) {
        DataRateMeter m = bodyMeter;
        return m == null || CarrierTurn.wokenUp(reader) ? 0 : m.behindSince(now);
    }

    /**
     * Makes the read blocked now, and every read after it, fail with {@link EvictedException}; the caller then
     * shuts the socket's input down to wake it.
     *
     * @return false if the reads were already cut for another reason
     */
    boolean evict() {
        return CUT.compareAndSet(this, NOT_CUT, EVICTED);
    }

    /** The exception for a read that was cut, or found its deadline passed. */
    private SocketTimeoutException cutException() {
        return switch (cut) {
            case TOO_SLOW -> new TooSlowException(bodyMeter == null ? 0 : bodyMeter.bytesPerSecond());
            case EVICTED -> new EvictedException();
            default -> new SocketTimeoutException("read timed out");
        };
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
            byte[] bigger = buf == idleBuf ? pool.take()
                    : new byte[Math.min(maxBufferSize, Math.max(1024, buf.length * 2))];
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
        CarrierTurn t = turn;
        if (t != null) {
            t.giveWayIfOver();
        }
        long now = System.nanoTime();
        long until = deadlineNanos != 0 ? deadlineNanos : now + readTimeoutNanos;
        if (cut != NOT_CUT || until - now <= 0 && !arrived()) {
            // A passed deadline judges the client only if its bytes are not here: this thread may have been
            // waiting for a carrier while they came.
            throw cutException();
        }
        blockedSinceNanos = now;
        reader = Thread.currentThread();
        blockedUntilNanos = until == 0 ? 1 : until;
        long moved = deadlineNanos;
        if (moved != 0 && moved != until) {
            // moveDeadline ran between reading the deadline and publishing it: apply its value.
            BLOCKED_UNTIL.compareAndSet(this, until == 0 ? 1 : until, moved);
        }
        DataRateMeter meter = metering ? bodyMeter : null;
        if (meter != null) {
            meter.begin(now);
        }
        int n = -1;
        try {
            n = in.read(b, off, len);
        } catch (IOException e) {
            if (cut != NOT_CUT) {
                throw cutException();
            }
            throw e;
        } finally {
            blockedUntilNanos = 0;
            if (meter != null) {
                meter.end(System.nanoTime(), Math.max(n, 0));
            }
            if (t != null) {
                t.blockingCallReturned(now);
            }
        }
        if (n < 0) {
            if (cut != NOT_CUT) {
                throw cutException();
            }
            eof = true;
            return -1;
        }
        bytesRead += n;
        return n;
    }

    /** Whether the socket has bytes ready to read now (one that cannot tell answers no). */
    private boolean arrived() {
        try {
            return in.available() > 0;
        } catch (IOException e) {
            return false;
        }
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

    /** A request body read cut because the body arrived slower than its minimum rate. */
    public static final class TooSlowException extends SocketTimeoutException {
        private static final long serialVersionUID = 1L;

        TooSlowException(long bytesPerSecond) {
            super("request body arrived slower than " + bytesPerSecond + " bytes/s");
        }
    }

    /**
     * A read cut because the server, short of connections, closes this one to make room for another (or
     * closes it early because it is idle).
     */
    public static final class EvictedException extends SocketTimeoutException {
        private static final long serialVersionUID = 1L;

        EvictedException() {
            super("connection closed to make room for others");
        }
    }

    /** Thrown by {@link #fill()} when one unit (line, frame) does not fit the largest allowed buffer. */
    public static final class BufferFullException extends IOException {
        private static final long serialVersionUID = 1L;

        BufferFullException() {
            super("input buffer full", null);
        }
    }
}
