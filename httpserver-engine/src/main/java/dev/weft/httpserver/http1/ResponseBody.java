package dev.weft.httpserver.http1;

import dev.weft.httpserver.core.ConnectionOutput;
import dev.weft.httpserver.core.FileRegion;
import dev.weft.httpserver.core.FileRegionSink;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Base of the response body streams: each frames the body one way, writes into the connection's buffer,
 * and tells the exchange when it is closed. Bytes reach the socket when the buffer fills, on
 * {@link #flush()}, or when the connection flushes after the exchange. Regions of files
 * ({@link #write(FileRegion)}) are framed as bytes are and handed to the connection, which sends them without
 * copying where it can.
 */
abstract sealed class ResponseBody extends OutputStream implements FileRegionSink
        permits FixedLengthOutputStream, ChunkedOutputStream, ResponseBody.CloseDelimited, ResponseBody.NoBody,
        ResponseBody.Raw {

    protected final ConnectionOutput out;
    private final Runnable onClose;
    private boolean closed;
    private long written;

    ResponseBody(ConnectionOutput out, Runnable onClose) {
        this.out = out;
        this.onClose = onClose;
    }

    /** Whether the body was framed completely, so the connection can carry another response. */
    abstract boolean isComplete();

    /** Writes whatever ends the body (e.g. the last chunk); may throw if the body is short. */
    protected abstract void finish() throws IOException;

    /** Body bytes accepted so far, for the access log. */
    final long bytesWritten() {
        return written;
    }

    protected final void countWritten(long n) {
        written += n;
    }

    protected final void checkOpen() throws IOException {
        if (closed) {
            throw new IOException("response body stream is closed");
        }
    }

    @Override
    public final void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void flush() throws IOException {
        checkOpen();
        out.flush();
    }

    @Override
    public final void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            finish();
        } finally {
            onClose.run();
        }
    }

    /** An HTTP/1.0 body of unknown length: ends when the connection closes. */
    static final class CloseDelimited extends ResponseBody {
        CloseDelimited(ConnectionOutput out, Runnable onClose) {
            super(out, onClose);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            checkOpen();
            out.write(b, off, len);
            countWritten(len);
        }

        @Override
        public void write(FileRegion region) throws IOException {
            checkOpen();
            out.write(region);
            countWritten(region.count());
        }

        @Override
        boolean isComplete() {
            return false;
        }

        @Override
        protected void finish() {
        }
    }

    /**
     * No body may be sent: HEAD responses discard what is written (so GET code can serve HEAD); 204, 304
     * and length {@code -1} responses reject any byte.
     */
    static final class NoBody extends ResponseBody {
        private final boolean discard;

        NoBody(ConnectionOutput out, Runnable onClose, boolean discard) {
            super(out, onClose);
            this.discard = discard;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (discard || len == 0) {
                return; // HEAD: GET code may write its body, which is dropped; empty writes are harmless
            }
            checkOpen();
            if (len > 0) {
                throw new IOException("this response has no body");
            }
        }

        @Override
        public void write(FileRegion region) throws IOException {
            if (discard || region.count() == 0) {
                return;
            }
            checkOpen();
            throw new IOException("this response has no body");
        }

        @Override
        boolean isComplete() {
            return true;
        }

        @Override
        protected void finish() {
        }
    }

    /**
     * The raw connection after a protocol switch: bytes pass through, {@link #flush()} sends them. After
     * {@link #endOutput()} (a half-close) nothing more may be written.
     */
    static final class Raw extends ResponseBody {
        private boolean outputEnded;

        Raw(ConnectionOutput out, Runnable onClose) {
            super(out, onClose);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            checkWritable();
            out.write(b, off, len);
        }

        @Override
        public void write(FileRegion region) throws IOException {
            checkWritable();
            out.write(region);
        }

        @Override
        public void flush() throws IOException {
            checkWritable();
            out.flush();
        }

        /** Marks the output direction ended; the connection half-closes the socket. */
        void endOutput() throws IOException {
            checkOpen();
            outputEnded = true;
        }

        private void checkWritable() throws IOException {
            checkOpen();
            if (outputEnded) {
                throw new IOException("the output of this connection was shut down");
            }
        }

        @Override
        boolean isComplete() {
            return false;
        }

        @Override
        protected void finish() throws IOException {
            if (!outputEnded) {
                out.flush();
            }
        }
    }
}
