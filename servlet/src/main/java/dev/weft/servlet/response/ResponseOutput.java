package dev.weft.servlet.response;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.Weft;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;

import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The response body as the servlet writes it (Servlet 6.1 §5.1): a buffer of {@code bufferSize} bytes in front
 * of the engine's stream. The response is committed (head sent) when the buffer overflows or is flushed — then
 * the body streams (chunked over HTTP/1.1) — or when the response is closed with everything still in the
 * buffer — then it is sent with a {@code Content-Length}. A declared content length closes the response once
 * that many bytes are written. For HEAD, bytes are counted for the length and discarded.
 *
 * <p>The buffer starts small and doubles up to {@code bufferSize} as content arrives: most responses are far
 * smaller than the buffer size, which only bounds what is held before the response commits.
 *
 * <p>Used by the thread that runs the servlet, or by the application's threads during asynchronous
 * processing; every operation holds one lock (never around application code). In non-blocking mode
 * ({@link #setWriteListener}) writes are handed to a {@link NonBlockingWriter}. The default servlet writes files
 * with {@link #writeFile}, which sends a region too large for the buffer without copying where the engine can.
 */
public final class ResponseOutput extends ServletOutputStream {

    /** The first allocation of the buffer, unless the first write needs more or the buffer size is smaller. */
    private static final int FIRST_BUFFER = 1024;

    private final WeftResponse response;
    private final ReentrantLock lock = new ReentrantLock();
    private byte[] buffer;
    private int count;
    private int bufferSize;
    private OutputStream target;
    private boolean committed;
    private boolean closed;
    private boolean suspended;
    private long written;
    private volatile boolean writeFailed;
    private NonBlockingWriter nonBlocking;

    ResponseOutput(WeftResponse response, int bufferSize) {
        this.response = response;
        this.bufferSize = bufferSize;
    }

    // ---- buffer management (response API)

    int bufferSize() {
        return bufferSize;
    }

    /** @throws IllegalStateException once content was written */
    void bufferSize(int size) {
        lock.lock();
        try {
            if (written > 0 || committed) {
                throw new IllegalStateException("setBufferSize after content was written");
            }
            bufferSize = Math.max(size, 0);
            buffer = null;
        } finally {
            lock.unlock();
        }
    }

    boolean isCommitted() {
        return committed;
    }

    /** Discards buffered content ({@code resetBuffer}); the caller checked the response is not committed. */
    void clearBuffer() {
        lock.lock();
        try {
            count = 0;
            written = 0;
        } finally {
            lock.unlock();
        }
    }

    /** From now on writes are ignored (after {@code sendError}/{@code sendRedirect}, or for an included error). */
    void suspend() {
        suspended = true;
    }

    /** Writes count again (the container writes the error page). */
    void resume() {
        suspended = false;
    }

    boolean isSuspended() {
        return suspended;
    }

    /** Bytes written by the application so far. */
    public long bytesWritten() {
        return written;
    }

    // ---- OutputStream

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        NonBlockingWriter nb = nonBlocking;
        if (nb != null && !nb.onDriverThread()) {
            nb.write(b, off, len);
            return;
        }
        writeBlocking(b, off, len);
    }

    /** The blocking write, also used by the non-blocking writer's thread. */
    void writeBlocking(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return;
        }
        lock.lock();
        try {
            int n = (int) admitLocked(len);
            if (n < 0) {
                return;
            }
            if (count + n <= bufferSize) {
                ensureBuffer(count + n);
                System.arraycopy(b, off, buffer, count, n);
                count += n;
            } else {
                commitLocked(false);
                drainLocked();
                sink(b, off, n);
            }
            closeIfCompleteLocked();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes {@code length} more bytes of content as written: clipped to what the declared length leaves, and
     * counted.
     *
     * @return how many of them to write, or -1 to write none (the response is suspended)
     * @throws IOException if the stream is closed
     */
    private long admitLocked(long length) throws IOException {
        if (suspended) {
            return -1;
        }
        if (closed) {
            throw new IOException("the response is closed");
        }
        long limit = response.declaredContentLength();
        long n = limit >= 0 && written + length > limit ? Math.max(0, limit - written) : length;
        written += n;
        return n;
    }

    /** Closes the stream once the declared length has been written. */
    private void closeIfCompleteLocked() throws IOException {
        long limit = response.declaredContentLength();
        if (limit >= 0 && written >= limit) {
            closeLocked();
        }
    }

    /**
     * Writes {@code length} bytes of {@code file} from {@code position} as body content, with the rules of
     * {@link #write(byte[], int, int)} (the declared length, HEAD, a suspended response), except that a region
     * larger than the room left in the buffer does not pass through it: the response commits, what is buffered is
     * sent, and the engine sends the region ({@link Weft#sendFile}: from the file to the socket without copying on
     * cleartext HTTP/1.1, copied over TLS and HTTP/2). A gzipped body gets the region copied into the compressor.
     * A region that fits in the buffer is read into it, as written bytes would be. The channel's position does not
     * move. For blocking output only.
     *
     * @throws IllegalStateException if a {@code WriteListener} made the stream non-blocking
     */
    public void writeFile(FileChannel file, long position, long length) throws IOException {
        if (nonBlocking != null) {
            throw new IllegalStateException("a file region is written in blocking mode only");
        }
        lock.lock();
        try {
            long n = admitLocked(length);
            if (n < 0) {
                return;
            }
            if (n > 0 && n <= bufferSize - count) {
                ensureBuffer(count + (int) n);
                FileRegionCopy.readFully(file, position, buffer, count, (int) n);
                count += (int) n;
            } else if (n > 0) {
                commitLocked(false);
                drainLocked();
                sinkFile(file, position, n);
            }
            closeIfCompleteLocked();
        } finally {
            lock.unlock();
        }
    }

    /** Sends a region past the buffer: the engine's own body stream takes it as a region, any other gets a copy. */
    private void sinkFile(FileChannel file, long position, long n) throws IOException {
        if (target == null) {
            return; // HEAD: counted, not sent
        }
        HttpExchange exchange = response.exchange();
        try {
            if (target == exchange.getResponseBody()) {
                Weft.sendFile(exchange, file, position, n);
            } else {
                FileRegionCopy.copy(file, position, n, target);
            }
        } catch (EOFException e) {
            throw e; // the file ended early: the file's doing, not the client's
        } catch (IOException e) {
            writeFailed = true;
            throw e;
        }
    }

    /** Makes the buffer hold at least {@code needed} bytes (at most {@code bufferSize}), keeping its content. */
    private void ensureBuffer(int needed) {
        byte[] current = buffer;
        if (current != null && current.length >= needed) {
            return;
        }
        long size = current == null ? FIRST_BUFFER : current.length * 2L;
        while (size < needed) {
            size *= 2;
        }
        byte[] grown = new byte[(int) Math.min(size, bufferSize)];
        if (current != null && count > 0) {
            System.arraycopy(current, 0, grown, 0, count);
        }
        buffer = grown;
    }

    @Override
    public void flush() throws IOException {
        NonBlockingWriter nb = nonBlocking;
        if (nb != null && !nb.onDriverThread()) {
            nb.flush();
            return;
        }
        flushBlocking();
    }

    /** Commits the response (streaming) and sends what is buffered. */
    void flushBlocking() throws IOException {
        lock.lock();
        try {
            if (suspended || closed) {
                return;
            }
            commitLocked(false);
            drainLocked();
            if (target != null) {
                try {
                    target.flush();
                } catch (IOException e) {
                    writeFailed = true;
                    throw e;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Closing the stream from the application completes the response body: everything is sent (with an exact
     * length if it is all still buffered); the exchange itself ends when the request is done.
     */
    @Override
    public void close() throws IOException {
        NonBlockingWriter nb = nonBlocking;
        if (nb != null && !nb.onDriverThread()) {
            nb.awaitIdle();
        }
        if (!closed) {
            response.beforeBodyEnds(); // the application's trailer supplier, called with no lock held
        }
        lock.lock();
        try {
            if (!closed) {
                closeLocked();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Completes the body for the container (end of the request); idempotent. */
    void finish() throws IOException {
        NonBlockingWriter nb = nonBlocking;
        if (nb != null) {
            nb.awaitIdle();
        }
        if (!closed) {
            response.beforeBodyEnds();
        }
        lock.lock();
        try {
            if (!closed) {
                boolean wasSuspended = suspended;
                suspended = false;
                try {
                    closeLocked();
                } finally {
                    suspended = wasSuspended;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Whether the body has been completed. */
    public boolean isClosed() {
        return closed;
    }

    private void closeLocked() throws IOException {
        closed = true;
        if (!committed) {
            commitLocked(true);
        }
        drainLocked();
        if (target != null) {
            target.close();
        }
    }

    private void commitLocked(boolean complete) throws IOException {
        if (committed) {
            return;
        }
        committed = true;
        target = response.commitHead(complete ? count : -1);
    }

    private void drainLocked() throws IOException {
        if (count > 0) {
            int n = count;
            count = 0;
            sink(buffer, 0, n);
        }
    }

    private void sink(byte[] b, int off, int len) throws IOException {
        if (target != null && len > 0) {
            try {
                target.write(b, off, len);
            } catch (IOException e) {
                writeFailed = true;
                throw e;
            }
        }
    }

    /** Whether sending the body failed (the client went away or stopped reading). */
    public boolean writeFailed() {
        return writeFailed;
    }

    // ---- non-blocking output

    @Override
    public boolean isReady() {
        NonBlockingWriter nb = nonBlocking;
        return nb == null || nb.isReady();
    }

    @Override
    public void setWriteListener(WriteListener writeListener) {
        java.util.Objects.requireNonNull(writeListener, "write listener");
        if (nonBlocking != null) {
            throw new IllegalStateException("a WriteListener is set already");
        }
        if (!response.asyncStarted()) {
            throw new IllegalStateException("non-blocking output requires asynchronous processing (startAsync)");
        }
        nonBlocking = new NonBlockingWriter(this, writeListener, response.context());
        nonBlocking.start();
    }

    /** Whether a WriteListener put the stream in non-blocking mode. */
    public boolean isNonBlocking() {
        return nonBlocking != null;
    }
}
