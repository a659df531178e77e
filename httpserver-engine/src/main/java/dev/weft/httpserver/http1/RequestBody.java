package dev.weft.httpserver.http1;

import dev.weft.httpserver.core.ConnectionInput;
import dev.weft.httpserver.stats.ProtocolError;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;

/**
 * Base of the request body streams: knows when the body is complete, sends {@code 100 Continue} on the
 * first read, applies the body-read timeout and the minimum data rate, remembers a framing failure, and can
 * drain what the handler left unread. Reads happen on whichever thread runs the handler, while the connection thread waits.
 */
abstract sealed class RequestBody extends InputStream permits FixedLengthInputStream, ChunkedInputStream, RequestBody.Empty {

    /** Called before the first byte is read from the socket, e.g. to send {@code 100 Continue}. */
    interface FirstReadListener {
        void beforeFirstRead() throws IOException;
    }

    protected final ConnectionInput in;
    private final long readTimeoutNanos;
    private FirstReadListener firstRead;
    private boolean closed;
    /** Discarding the rest after the exchange, under the drain deadline instead of the per-read timeout. */
    private boolean draining;
    private BodyException failure;

    RequestBody(ConnectionInput in, int readTimeoutMillis, FirstReadListener firstRead) {
        this.in = in;
        this.readTimeoutNanos = readTimeoutMillis * 1_000_000L;
        this.firstRead = firstRead;
    }

    /** Whether every byte of the body (and its trailers) has been consumed. */
    abstract boolean isComplete();

    /** Reads body bytes from the connection; only called while the body is not complete. */
    protected abstract int readBody(byte[] b, int off, int len) throws IOException;

    /** Whether the first read (and so {@code 100 Continue}) has happened. */
    boolean started() {
        return firstRead == null;
    }

    /** The framing failure seen while reading, or {@code null}. */
    BodyException failure() {
        return failure;
    }

    private byte[] one;

    @Override
    public final int read() throws IOException {
        if (one == null) {
            one = new byte[1];
        }
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public final int read(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (closed) {
            throw new IOException("request body stream is closed");
        }
        return readInternal(b, off, len);
    }

    private int readInternal(byte[] b, int off, int len) throws IOException {
        if (failure != null) {
            throw failure;
        }
        if (isComplete()) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        if (firstRead != null) {
            FirstReadListener l = firstRead;
            firstRead = null;
            l.beforeFirstRead();
        }
        if (!draining) {
            in.bodyReadTimeout(readTimeoutNanos);
        }
        try {
            return readBody(b, off, len);
        } catch (BodyException e) {
            failure = e;
            throw e;
        } catch (ConnectionInput.TooSlowException e) {
            failure = new BodyException(408, ProtocolError.REQUEST_DATA_RATE, e.getMessage());
            throw failure;
        } catch (ConnectionInput.EvictedException e) {
            // Counted where the connection was evicted, not as the client's error.
            failure = new BodyException(408, null, e.getMessage());
            throw failure;
        } catch (SocketTimeoutException e) {
            failure = new BodyException(408, ProtocolError.BODY_TIMEOUT, "request body read timed out");
            throw failure;
        } catch (java.io.EOFException e) {
            failure = new BodyException(400, ProtocolError.UNEXPECTED_EOF, "connection closed before the end of the body");
            throw failure;
        } catch (IOException e) {
            // Reset by the client, or closed by the server (stop, timeout) while the handler read.
            failure = new BodyException(400, ProtocolError.UNEXPECTED_EOF, "connection broken before the end of the body: "
                    + e.getMessage());
            throw failure;
        }
    }

    @Override
    public int available() throws IOException {
        return failure != null || isComplete() ? 0 : Math.min(in.buffered(), availableFromBuffer());
    }

    /** How many of the buffered bytes belong to the body; an estimate is fine. */
    protected abstract int availableFromBuffer();

    /** Marks the stream closed; unread bytes are left for {@link #drain(long, long)}. */
    @Override
    public void close() {
        closed = true;
    }

    /**
     * Reads and discards the rest of the body, at most {@code max} bytes, before {@code deadlineNanos}
     * ({@link System#nanoTime()}).
     *
     * @return whether the body is now complete and the connection can carry another request
     */
    boolean drain(long max, long deadlineNanos) {
        if (failure != null) {
            return false;
        }
        draining = true;
        in.requestDeadline(deadlineNanos);
        byte[] sink = new byte[8192];
        long total = 0;
        try {
            while (!isComplete()) {
                // Ask for one byte more than is allowed, to tell "exactly max" from "more than max".
                int want = (int) Math.min(sink.length, max - total + 1);
                int n = readInternal(sink, 0, want);
                if (n < 0) {
                    break;
                }
                total += n;
                if (total > max) {
                    return false;
                }
            }
            return true;
        } catch (IOException e) {
            if (failure != null && failure.kind() == ProtocolError.BODY_TIMEOUT) {
                failure = new BodyException(408, ProtocolError.DRAIN_TIMEOUT,
                        "unread request body not received within the drain timeout");
            }
            return false;
        }
    }

    /** The body of a request that has none. */
    static final class Empty extends RequestBody {
        Empty(ConnectionInput in) {
            super(in, 1, null);
        }

        @Override
        boolean isComplete() {
            return true;
        }

        @Override
        protected int readBody(byte[] b, int off, int len) {
            return -1;
        }

        @Override
        protected int availableFromBuffer() {
            return 0;
        }
    }
}
