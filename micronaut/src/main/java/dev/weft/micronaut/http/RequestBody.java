package dev.weft.micronaut.http;

import io.micronaut.core.io.buffer.ByteArrayBufferFactory;
import io.micronaut.http.body.ByteBody;
import io.micronaut.http.body.CloseableByteBody;
import io.micronaut.http.body.stream.AvailableByteArrayBody;
import io.micronaut.http.body.stream.InputStreamByteBody;
import io.micronaut.http.exceptions.ContentLengthExceededException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.OptionalLong;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The body of one request: read as a stream by whoever asks for the {@link ByteBody} (a {@code Publisher} or
 * {@code InputStream} argument, a streaming upload), or read whole, at most {@code bufferLimit} bytes, for
 * binding ({@code @Body} objects, forms) and kept for later readers.
 *
 * <p>Limits: a declared length over {@code maxRequestSize} is refused before any byte is read, and a body that
 * grows past the limit while it is read fails with {@link ContentLengthExceededException}, which Micronaut answers
 * with {@code 413} and its JSON error body, as on Netty.
 */
public final class RequestBody {

    private static final int CHUNK = 8192;

    private final InputStream in;
    private final long declaredLength;
    private final long maxRequestSize;
    private final long bufferLimit;
    private final Executor ioExecutor;
    /** Guards the two views of the body; held while {@link #bytes()} reads it from the socket. */
    private final ReentrantLock lock = new ReentrantLock();
    private CloseableByteBody body;
    private byte[] bytes;

    /**
     * @param declaredLength the {@code Content-Length}, or -1 when the body is chunked
     */
    public RequestBody(InputStream in, long declaredLength, long maxRequestSize, long bufferLimit,
                       Executor ioExecutor) {
        this.in = in;
        this.declaredLength = declaredLength;
        this.maxRequestSize = maxRequestSize;
        this.bufferLimit = Math.min(maxRequestSize, bufferLimit);
        this.ioExecutor = ioExecutor;
    }

    /** Whether the request declares a body longer than {@code micronaut.server.max-request-size}. */
    public boolean tooLarge() {
        return declaredLength > maxRequestSize;
    }

    /** The failure that answers a declared length over the limit. */
    public ContentLengthExceededException tooLargeFailure() {
        return new ContentLengthExceededException(maxRequestSize, declaredLength);
    }

    /** Whether the request has no body at all. */
    public boolean isEmpty() {
        return declaredLength == 0;
    }

    /** The body as Micronaut's streaming abstraction; once asked for, {@link #bytes()} buffers through it. */
    public ByteBody byteBody() {
        lock.lock();
        try {
            return byteBodyLocked();
        } finally {
            lock.unlock();
        }
    }

    private ByteBody byteBodyLocked() {
        if (body == null) {
            if (bytes != null) {
                body = AvailableByteArrayBody.create(ByteArrayBufferFactory.INSTANCE, bytes);
            } else {
                OptionalLong length = declaredLength >= 0 ? OptionalLong.of(declaredLength) : OptionalLong.empty();
                body = InputStreamByteBody.create(limited(), length,
                        ioExecutor, ByteArrayBufferFactory.INSTANCE);
            }
        }
        return body;
    }

    /** The body stream, failing with {@code 413} once more than {@code maxRequestSize} bytes have come. */
    private SizeLimitedInput limited() {
        return new SizeLimitedInput(in, maxRequestSize, read ->
                new ContentLengthExceededException(maxRequestSize, declaredLength >= 0 ? declaredLength : read));
    }

    /**
     * The whole body, read now on the calling thread if nobody has read it yet.
     *
     * @throws ContentLengthExceededException if it is longer than the buffer limit
     * @throws UncheckedIOException           if the body could not be read
     * @throws CompletionException            if the client broke the body off (see {@link #unchecked})
     */
    public byte[] bytes() {
        lock.lock();
        try {
            return bytesLocked();
        } finally {
            lock.unlock();
        }
    }

    private byte[] bytesLocked() {
        if (bytes != null) {
            return bytes;
        }
        if (declaredLength > bufferLimit) {
            throw new ContentLengthExceededException(bufferLimit, declaredLength);
        }
        if (body != null) {
            bytes = bufferThroughByteBody();
            return bytes;
        }
        try {
            bytes = readAll();
        } catch (IOException ex) {
            throw unchecked(ex);
        }
        return bytes;
    }

    /**
     * A failure to read a request body, unchecked: a body the client broke ({@link ClientBodyInput.BrokenBody}) in a
     * {@link CompletionException}, which Micronaut's request lifecycle unwraps and then counts as the client's
     * connectivity failure (logged at {@code DEBUG}); any other in an {@link UncheckedIOException}.
     */
    public static RuntimeException unchecked(IOException failure) {
        return failure instanceof ClientBodyInput.BrokenBody ? new CompletionException(failure)
                : new UncheckedIOException(failure);
    }

    private byte[] readAll() throws IOException {
        if (declaredLength == 0) {
            return new byte[0];
        }
        if (declaredLength > 0) {
            byte[] all = in.readNBytes((int) declaredLength);
            if (all.length < declaredLength) {
                throw new java.io.EOFException("The request body ended after " + all.length + " of "
                        + declaredLength + " bytes");
            }
            return all;
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] chunk = new byte[CHUNK];
        long total = 0;
        for (int n; (n = in.read(chunk)) >= 0; ) {
            total += n;
            if (total > bufferLimit) {
                throw new ContentLengthExceededException(bufferLimit, total);
            }
            out.write(chunk, 0, n);
        }
        return out.toByteArray();
    }

    private byte[] bufferThroughByteBody() {
        try {
            return body.split(ByteBody.SplitBackpressureMode.FASTEST).buffer().get().toByteArray();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted reading the request body", ex);
        } catch (ExecutionException ex) {
            if (ex.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (ex.getCause() instanceof ClientBodyInput.BrokenBody broken) {
                throw unchecked(broken);
            }
            throw new UncheckedIOException(new IOException("The request body could not be read", ex.getCause()));
        }
    }

    /** Releases what the body holds once the exchange is over. */
    public void close() {
        lock.lock();
        try {
            if (body != null) {
                body.close();
            }
        } finally {
            lock.unlock();
        }
    }
}
