package dev.weft.spring.boot.reactive;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.Weft;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBuffer;

import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * The response side of an exchange as the connection thread drives it: sends the head on the first body byte
 * (fixed length when known, else chunked, gzipped when {@link WeftCompression} says so), writes and flushes
 * body buffers and file regions, and ends the exchange.
 *
 * <p>Threads: the {@code status}/{@code contentLength} setters are called once at commit, by whichever thread
 * commits; everything else runs on the connection thread only (tasks of the {@link ExchangeLoop}, which
 * orders them after the commit).
 */
final class ExchangeOutput {

    private static final int GZIP_BUFFER_SIZE = 8 * 1024;

    private final HttpExchange exchange;
    private final WeftCompression compression;
    private volatile int status = 200;
    private volatile long contentLength = -1;
    private volatile boolean upgraded;
    /** A write to the client failed: it went away. */
    private volatile boolean writeFailed;
    /** Written since the last flush; connection thread only. */
    private boolean unflushed;
    // connection thread only
    private @Nullable OutputStream body;
    private @Nullable GZIPOutputStream gzip;
    private byte @Nullable [] scratch;

    ExchangeOutput(HttpExchange exchange, WeftCompression compression) {
        this.exchange = exchange;
        this.compression = compression;
    }

    /** The status to send (at commit). */
    void status(int status) {
        this.status = status;
    }

    /** The {@code Content-Length} the application declared (at commit), or -1. */
    void contentLength(long contentLength) {
        this.contentLength = contentLength;
    }

    /** From now on another protocol owns the exchange (see {@link WeftServerHttpResponse#upgrade}). */
    void upgraded() {
        upgraded = true;
    }

    /** Whether the response head has gone out (or another protocol took the exchange over). */
    boolean started() {
        return body != null || upgraded;
    }

    /** Whether writing to the client failed (it closed or reset the connection or stream). */
    boolean writeFailed() {
        return writeFailed;
    }

    /** Writes one buffer of the body, sending the head first if needed, and releases the buffer. */
    void write(DataBuffer buffer) throws IOException {
        try {
            if (buffer.readableByteCount() == 0) {
                return;
            }
            OutputStream out = start();
            unflushed = true;
            if (buffer instanceof DefaultDataBuffer heap && heap.getNativeBuffer().hasArray()) {
                // Its ByteBuffer views are read-only (no array): write from the backing array instead.
                ByteBuffer bytes = heap.getNativeBuffer();
                out.write(bytes.array(), bytes.arrayOffset() + heap.readPosition(), heap.readableByteCount());
                return;
            }
            try (DataBuffer.ByteBufferIterator it = buffer.readableByteBuffers()) {
                while (it.hasNext()) {
                    writeTo(out, it.next());
                }
            }
        } catch (IOException ex) {
            writeFailed = true;
            throw ex;
        } finally {
            DataBufferUtils.release(buffer);
        }
    }

    /**
     * Writes {@code count} bytes of {@code file} from {@code position} as the next part of the body, sending the
     * head first if needed: the engine sends them from the file to the socket without copying where it can
     * ({@link Weft#sendFile}: cleartext HTTP/1.1), and copies them over TLS and HTTP/2; a gzipped body gets them
     * copied into the compressor. The file is opened before the head goes out, so a missing one still gets a 500.
     */
    void writeFile(Path file, long position, long count) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            try {
                start();
                if (count == 0) {
                    return;
                }
                unflushed = true;
                if (gzip != null) {
                    copy(channel, position, count, gzip);
                } else {
                    Weft.sendFile(exchange, channel, position, count);
                }
            } catch (EOFException ex) {
                throw ex; // the file ended before the region: the file's doing, not the client's
            } catch (IOException ex) {
                writeFailed = true;
                throw ex;
            }
        }
    }

    /** Sends what has been written and not sent yet, if anything; for the loop's idle moments. */
    void flushWritten() throws IOException {
        if (unflushed) {
            flush();
        }
    }

    /** Sends what has been written so far to the client at once (one SSE event, one streamed element). */
    void flush() throws IOException {
        unflushed = false;
        try {
            start().flush();
        } catch (IOException ex) {
            writeFailed = true;
            throw ex;
        }
    }

    /** Ends a response that completed: sends the head if the body was empty, then closes the exchange. */
    void complete() throws IOException {
        if (upgraded) {
            exchange.close(); // the protocol has ended; nothing of ours to send
            return;
        }
        if (body == null) {
            // -1: no body. The engine sends Content-Length: 0, none for 204/304, and for HEAD the length the
            // application declared.
            exchange.sendResponseHeaders(status, -1);
        } else if (gzip != null) {
            gzip.finish();
        }
        exchange.close();
    }

    /**
     * Ends a response that failed: a bare 500 if nothing was sent yet; otherwise the response cannot be
     * repaired and this throws, so the engine breaks the connection off without completing the body.
     */
    void fail(Throwable failure) throws IOException {
        if (upgraded) {
            throw new ResponseAbortedException(failure);
        }
        if (body == null) {
            exchange.getResponseHeaders().clear();
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
            return;
        }
        try {
            // What was produced reaches the client; the missing end of the body tells it the rest is lost.
            body.flush();
        } catch (IOException ex) {
            failure.addSuppressed(ex);
        }
        throw new ResponseAbortedException(failure);
    }

    private OutputStream start() throws IOException {
        if (body != null) {
            return body;
        }
        Headers headers = exchange.getResponseHeaders();
        long length = contentLength;
        if (compression.shouldCompress(exchange.getRequestMethod(), exchange.getRequestHeaders(), status, headers,
                length)) {
            headers.remove("Content-Length");
            headers.set("Content-Encoding", "gzip");
            addVary(headers);
            exchange.sendResponseHeaders(status, 0);
            gzip = new GZIPOutputStream(exchange.getResponseBody(), GZIP_BUFFER_SIZE, true);
            body = gzip;
        } else {
            if (length <= 0) {
                headers.remove("Content-Length");
            }
            exchange.sendResponseHeaders(status, length > 0 ? length : 0);
            body = exchange.getResponseBody();
        }
        return body;
    }

    private static void addVary(Headers headers) {
        List<String> vary = headers.get("Vary");
        if (vary != null) {
            for (String value : vary) {
                for (String token : value.split(",")) {
                    String t = token.strip();
                    if (t.equals("*") || t.equalsIgnoreCase("Accept-Encoding")) {
                        return;
                    }
                }
            }
        }
        headers.add("Vary", "Accept-Encoding");
    }

    private void writeTo(OutputStream out, ByteBuffer bytes) throws IOException {
        if (bytes.hasArray()) {
            out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            return;
        }
        byte[] copy = scratch();
        while (bytes.hasRemaining()) {
            int n = Math.min(copy.length, bytes.remaining());
            bytes.get(copy, 0, n);
            out.write(copy, 0, n);
        }
    }

    /** Copies a region of a file to {@code out} through the scratch buffer. */
    private void copy(FileChannel channel, long position, long count, OutputStream out) throws IOException {
        byte[] copy = scratch();
        ByteBuffer bytes = ByteBuffer.wrap(copy);
        long pos = position;
        for (long left = count; left > 0; ) {
            bytes.clear().limit((int) Math.min(copy.length, left));
            int n = channel.read(bytes, pos);
            if (n < 0) {
                throw new EOFException("the file ended " + left + " bytes before the end of the region sent");
            }
            out.write(copy, 0, n);
            pos += n;
            left -= n;
        }
    }

    private byte[] scratch() {
        byte[] copy = scratch;
        if (copy == null) {
            copy = new byte[RequestBodyPublisher.CHUNK_SIZE];
            scratch = copy;
        }
        return copy;
    }

    /** Thrown to the engine to break off a response that failed after its head was sent. */
    static final class ResponseAbortedException extends IOException {
        ResponseAbortedException(Throwable cause) {
            super("Response aborted after it was committed: " + cause, cause);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this; // the cause carries the interesting trace
        }
    }
}
