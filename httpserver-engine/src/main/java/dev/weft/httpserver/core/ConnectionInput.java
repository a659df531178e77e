package dev.weft.httpserver.core;

import dev.weft.httpserver.stats.ServerStats;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * The buffered byte source of one connection. Parsers work directly on {@link #buffer()} between
 * {@link #position()} and {@link #limit()} and call {@link #fill()} for more; body streams read through it.
 *
 * <p>Reads are bounded either by an absolute deadline (a header section must arrive by then) or by a
 * per-read timeout (each read of a body may wait that long). Owned by the connection's thread.
 */
public final class ConnectionInput extends InputStream {

    private final Socket socket;
    private final InputStream in;
    private final ServerStats stats;
    private final int maxBufferSize;
    private byte[] buf;
    private int pos;
    private int limit;
    private long deadlineNanos;
    private int readTimeoutMillis;
    private int currentSoTimeout = -1;
    private boolean eof;

    /**
     * @param initialSize   starting buffer size
     * @param maxBufferSize largest the buffer may grow to hold one line or frame
     */
    public ConnectionInput(Socket socket, InputStream in, ServerStats stats, int initialSize, int maxBufferSize) {
        this.socket = socket;
        this.in = in;
        this.stats = stats;
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

    /** Every read from now on must complete before this {@link System#nanoTime()} value. */
    public void deadline(long nanoTime) {
        deadlineNanos = nanoTime;
        readTimeoutMillis = 0;
    }

    /** Each read from now on may block at most this long. */
    public void readTimeout(int millis) {
        readTimeoutMillis = millis;
        deadlineNanos = 0;
    }

    /** Whether the peer has closed its side. */
    public boolean atEof() {
        return eof && pos == limit;
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
            byte[] bigger = new byte[Math.min(maxBufferSize, buf.length * 2)];
            System.arraycopy(buf, 0, bigger, 0, limit);
            buf = bigger;
        }
        applyTimeout();
        int n = in.read(buf, limit, buf.length - limit);
        if (n < 0) {
            eof = true;
            return -1;
        }
        limit += n;
        stats.bytesReceived(n);
        return n;
    }

    private void applyTimeout() throws IOException {
        int timeout;
        if (deadlineNanos != 0) {
            long remaining = deadlineNanos - System.nanoTime();
            if (remaining <= 0) {
                throw new SocketTimeoutException("read deadline passed");
            }
            timeout = (int) Math.max(1, Math.min(Integer.MAX_VALUE, remaining / 1_000_000));
        } else {
            timeout = readTimeoutMillis;
        }
        if (timeout != currentSoTimeout) {
            socket.setSoTimeout(timeout);
            currentSoTimeout = timeout;
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
            if (len >= buf.length) {
                // Large reads bypass the buffer.
                if (eof) {
                    return -1;
                }
                applyTimeout();
                int n = in.read(b, off, len);
                if (n < 0) {
                    eof = true;
                    return -1;
                }
                stats.bytesReceived(n);
                return n;
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
