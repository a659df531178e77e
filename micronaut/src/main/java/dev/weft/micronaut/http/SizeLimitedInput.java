package dev.weft.micronaut.http;

import io.micronaut.http.exceptions.ContentLengthExceededException;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.LongFunction;

/**
 * A stream that counts what is read from it and fails, with Micronaut's {@link ContentLengthExceededException}
 * (answered {@code 413}), as soon as more than {@code limit} bytes have come: for a chunked request body
 * against {@code micronaut.server.max-request-size}, a streamed file part against
 * {@code micronaut.server.multipart.max-file-size}.
 */
public final class SizeLimitedInput extends FilterInputStream {

    private final long limit;
    private final LongFunction<ContentLengthExceededException> overLimit;
    private volatile long read;

    /**
     * @param overLimit the failure, given the number of bytes read when the limit was passed
     */
    public SizeLimitedInput(InputStream in, long limit, LongFunction<ContentLengthExceededException> overLimit) {
        super(in);
        this.limit = limit;
        this.overLimit = overLimit;
    }

    /** The bytes read so far. */
    public long bytesRead() {
        return read;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            counted(n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        if (skipped > 0) {
            counted(skipped);
        }
        return skipped;
    }

    private void counted(long n) {
        long total = read + n;
        read = total;
        if (total > limit) {
            throw overLimit.apply(total);
        }
    }
}
