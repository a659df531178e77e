package dev.weft.httpserver.http2;

import java.io.IOException;
import java.io.OutputStream;

/**
 * The response body of one stream: collects what the handler writes and sends it as DATA frames, each as
 * large as the peer's max frame size and flow-control windows allow. Closing sends the end of the stream
 * (with trailers if the handler set any) and completes the exchange.
 */
final class Http2ResponseBody extends OutputStream {

    private static final int BUFFER_SIZE = 16 * 1024;

    private final Http2Stream stream;
    /** The length the handler announced, or -1 for a streamed body; {@code 0} for no body at all. */
    private final long declaredLength;
    private byte[] buf;
    private int count;
    private long written;
    private boolean closed;
    /** END_STREAM was sent by a tunnel's half-close; the stream is still to be closed. */
    private boolean ended;

    Http2ResponseBody(Http2Stream stream, long declaredLength) {
        this.stream = stream;
        this.declaredLength = declaredLength;
    }

    /** Octets the handler wrote. */
    long bytesWritten() {
        return written;
    }

    /** Whether the body has ended: closed, or END_STREAM sent by {@link #endStream()}. */
    boolean isClosed() {
        return closed || ended;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (declaredLength == 0 && stream.isHead()) {
            return; // HEAD: the GET code path may write its body, which is dropped
        }
        if (closed || ended) {
            throw new IOException(closed ? "response body stream is closed" : "the tunnel's output was shut down");
        }
        if (len == 0) {
            return;
        }
        if (declaredLength == 0) {
            throw new IOException("this response has no body");
        }
        if (declaredLength > 0 && written + len > declaredLength) {
            throw new IOException("too many bytes to write to stream: " + declaredLength + " were announced");
        }
        written += len;
        if (count == 0 && len >= BUFFER_SIZE) {
            stream.sendData(b, off, len, false); // large writes skip the buffer
            return;
        }
        if (buf == null) {
            // A short announced body needs no more than its length.
            buf = new byte[declaredLength > 0 ? (int) Math.min(declaredLength, BUFFER_SIZE) : BUFFER_SIZE];
        }
        while (len > 0) {
            int n = Math.min(len, buf.length - count);
            System.arraycopy(b, off, buf, count, n);
            count += n;
            off += n;
            len -= n;
            if (count == buf.length) {
                stream.sendData(buf, 0, count, false);
                count = 0;
            }
        }
    }

    /** Sends what is buffered now. */
    @Override
    public void flush() throws IOException {
        if (closed || ended) {
            return;
        }
        if (count > 0) {
            stream.sendData(buf, 0, count, false);
            count = 0;
        } else {
            stream.flushHead();
        }
    }

    /**
     * Sends what is buffered, then END_STREAM, without completing the exchange: a tunnel's half-close
     * (RFC 9113 §8.5). Idempotent.
     */
    void endStream() throws IOException {
        if (closed) {
            throw new IOException("response body stream is closed");
        }
        if (!ended) {
            ended = true;
            stream.finishBody(buf, count);
            count = 0;
        }
    }

    /**
     * Ends the stream. If fewer bytes were written than announced, the stream is reset and this throws, as
     * the JDK's server does.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (declaredLength > 0 && written < declaredLength) {
                stream.resetAfterHandlerError();
                throw new IOException("insufficient bytes written to stream: " + written + " of " + declaredLength);
            }
            if (declaredLength != 0 && !ended) {
                stream.finishBody(buf, count);
            }
            count = 0;
        } finally {
            stream.complete();
        }
    }
}
