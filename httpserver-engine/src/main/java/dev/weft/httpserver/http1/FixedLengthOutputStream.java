package dev.weft.httpserver.http1;

import dev.weft.httpserver.core.ConnectionOutput;
import dev.weft.httpserver.core.FileRegion;

import java.io.IOException;

/** A response body of the length given to {@code sendResponseHeaders}: no more, no less. */
final class FixedLengthOutputStream extends ResponseBody {

    private long remaining;

    FixedLengthOutputStream(ConnectionOutput out, long length, Runnable onClose) {
        super(out, onClose);
        this.remaining = length;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        checkOpen();
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (len > remaining) {
            throw new IOException("too many bytes to write to stream: " + len + " > " + remaining + " remaining");
        }
        out.write(b, off, len);
        remaining -= len;
        countWritten(len);
    }

    @Override
    public void write(FileRegion region) throws IOException {
        checkOpen();
        long len = region.count();
        if (len > remaining) {
            throw new IOException("too many bytes to write to stream: " + len + " > " + remaining + " remaining");
        }
        out.write(region);
        remaining -= len;
        countWritten(len);
    }

    @Override
    boolean isComplete() {
        return remaining == 0;
    }

    @Override
    protected void finish() throws IOException {
        if (remaining > 0) {
            throw new IOException("insufficient bytes written to stream: " + remaining + " missing");
        }
    }
}
