package dev.weft.servlet.request;

import dev.weft.servlet.context.WeftServletContext;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * The request body as the servlet reads it: the engine's stream, read blocking, or — once a
 * {@link ReadListener} is set during asynchronous processing — through a {@link NonBlockingReader}. Knows when
 * the body has been read to its end (for {@code isFinished} and the trailer fields) and whether a read failed
 * because of the client (the engine then answers for the exchange). Used by one thread at a time, except in
 * non-blocking mode where the reader synchronizes.
 */
public final class RequestInput extends ServletInputStream {

    private final InputStream raw;
    private final WeftServletContext context;
    private final BooleanSupplier asyncStarted;
    private volatile boolean finished;
    private volatile boolean clientFailed;
    private NonBlockingReader nonBlocking;

    RequestInput(InputStream raw, boolean knownEmpty, WeftServletContext context, BooleanSupplier asyncStarted) {
        this.raw = raw;
        this.finished = knownEmpty;
        this.context = context;
        this.asyncStarted = asyncStarted;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        NonBlockingReader nb = nonBlocking;
        if (nb != null) {
            return nb.read(b, off, len);
        }
        return readRaw(b, off, len);
    }

    /** A blocking read of the engine's stream. */
    int readRaw(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (finished) {
            return -1;
        }
        int n;
        try {
            n = raw.read(b, off, len);
        } catch (IOException e) {
            clientFailed = true;
            throw e;
        }
        if (n < 0) {
            finished = true;
        }
        return n;
    }

    @Override
    public int available() throws IOException {
        NonBlockingReader nb = nonBlocking;
        if (nb != null) {
            return nb.available();
        }
        return finished ? 0 : raw.available();
    }

    @Override
    public boolean isFinished() {
        NonBlockingReader nb = nonBlocking;
        return nb != null ? nb.isFinished() : finished;
    }

    @Override
    public boolean isReady() {
        NonBlockingReader nb = nonBlocking;
        return nb == null || nb.isReady();
    }

    @Override
    public void setReadListener(ReadListener readListener) {
        Objects.requireNonNull(readListener, "read listener");
        if (nonBlocking != null) {
            throw new IllegalStateException("a ReadListener is set already");
        }
        if (!asyncStarted.getAsBoolean()) {
            throw new IllegalStateException("non-blocking input requires asynchronous processing (startAsync)");
        }
        nonBlocking = new NonBlockingReader(this, readListener, context);
        nonBlocking.start();
    }

    /** Whether the body has been read to its end. */
    boolean endReached() {
        return finished;
    }

    /** Whether a read failed because the client broke off, stalled or sent a malformed or oversized body. */
    public boolean clientFailed() {
        return clientFailed;
    }

    @Override
    public void close() {
        // the engine discards what is left of the body when the exchange ends
    }
}
