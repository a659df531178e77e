package dev.weft.httpserver.http1;

import com.sun.net.httpserver.Headers;
import dev.weft.httpserver.core.ConnectionOutput;
import dev.weft.httpserver.core.FileRegion;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * A chunked response body (RFC 9112 §7.1): small writes are gathered into chunks of up to
 * {@value #CHUNK_SIZE} bytes; {@link #flush()} sends the pending chunk at once (for streaming responses). A
 * file region is a chunk of its own.
 */
final class ChunkedOutputStream extends ResponseBody {

    static final int CHUNK_SIZE = 8 * 1024;
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] LAST_CHUNK = {'0', '\r', '\n', '\r', '\n'};
    private static final byte[] LAST_CHUNK_LINE = {'0', '\r', '\n'};

    private final byte[] chunk = new byte[CHUNK_SIZE];
    private int count;
    private boolean finished;
    private Headers trailers;

    ChunkedOutputStream(ConnectionOutput out, Runnable onClose) {
        super(out, onClose);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        checkOpen();
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        countWritten(len);
        if (len >= CHUNK_SIZE) {
            writePending();
            writeChunk(b, off, len);
            return;
        }
        if (len > CHUNK_SIZE - count) {
            writePending();
        }
        System.arraycopy(b, off, chunk, count, len);
        count += len;
    }

    /** The region as one chunk of its own; the chunk's line and end are buffered around it. */
    @Override
    public void write(FileRegion region) throws IOException {
        checkOpen();
        long len = region.count();
        if (len == 0) {
            return; // an empty chunk would be the last one
        }
        countWritten(len);
        writePending();
        out.writeHex(len);
        out.write(CRLF, 0, 2);
        out.write(region);
        out.write(CRLF, 0, 2);
    }

    private void writePending() throws IOException {
        if (count > 0) {
            writeChunk(chunk, 0, count);
            count = 0;
        }
    }

    private void writeChunk(byte[] b, int off, int len) throws IOException {
        out.writeHex(len);
        out.write(CRLF, 0, 2);
        out.write(b, off, len);
        out.write(CRLF, 0, 2);
    }

    @Override
    public void flush() throws IOException {
        checkOpen();
        writePending();
        out.flush();
    }

    /** Trailer fields to send in the trailer section (RFC 9112 §7.1.2); validated by the caller. */
    void trailers(Headers fields) {
        trailers = fields;
    }

    @Override
    boolean isComplete() {
        return finished;
    }

    @Override
    protected void finish() throws IOException {
        writePending();
        if (trailers == null || trailers.isEmpty()) {
            out.write(LAST_CHUNK, 0, LAST_CHUNK.length);
        } else {
            out.write(LAST_CHUNK_LINE, 0, LAST_CHUNK_LINE.length);
            for (Map.Entry<String, List<String>> e : trailers.entrySet()) {
                for (String v : e.getValue()) {
                    out.writeLatin1(e.getKey());
                    out.write(':');
                    out.write(' ');
                    out.writeLatin1(v);
                    out.write(CRLF, 0, 2);
                }
            }
            out.write(CRLF, 0, 2);
        }
        finished = true;
    }
}
