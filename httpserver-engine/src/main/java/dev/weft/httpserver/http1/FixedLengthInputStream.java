package dev.weft.httpserver.http1;

import dev.weft.httpserver.core.ConnectionInput;

import java.io.EOFException;
import java.io.IOException;

/** A request body of known {@code Content-Length}. */
final class FixedLengthInputStream extends RequestBody {

    private long remaining;

    FixedLengthInputStream(ConnectionInput in, long length, int readTimeoutMillis, FirstReadListener firstRead) {
        super(in, readTimeoutMillis, firstRead);
        this.remaining = length;
    }

    @Override
    boolean isComplete() {
        return remaining == 0;
    }

    @Override
    protected int readBody(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, (int) Math.min(len, remaining));
        if (n < 0) {
            throw new EOFException();
        }
        remaining -= n;
        return n;
    }

    @Override
    protected int availableFromBuffer() {
        return (int) Math.min(Integer.MAX_VALUE, remaining);
    }
}
