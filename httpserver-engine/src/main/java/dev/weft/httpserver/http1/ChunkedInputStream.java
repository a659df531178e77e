package dev.weft.httpserver.http1;

import dev.weft.httpserver.core.CharClasses;
import dev.weft.httpserver.core.RequestHeaders;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.ConnectionInput;
import dev.weft.httpserver.stats.ProtocolError;

import java.io.EOFException;
import java.io.IOException;

/**
 * A chunked request body (RFC 9112 §7.1): chunk sizes, extensions and terminators are checked strictly,
 * the decoded size is capped, and the trailer section is parsed into {@link #trailers()}.
 */
final class ChunkedInputStream extends RequestBody {

    private enum State { SIZE, DATA, DATA_END, DONE }

    private final ServerConfig config;
    private final RequestHeaders trailers = new RequestHeaders();
    private State state = State.SIZE;
    private long chunkRemaining;
    private long total;

    ChunkedInputStream(ConnectionInput in, ServerConfig config, FirstReadListener firstRead) {
        super(in, (int) config.bodyReadTimeout().toMillis(), firstRead);
        this.config = config;
    }

    /** The trailer fields, once the body is complete; {@code null} before. */
    RequestHeaders trailers() {
        return state == State.DONE ? trailers : null;
    }

    @Override
    boolean isComplete() {
        return state == State.DONE;
    }

    @Override
    protected int availableFromBuffer() {
        return state == State.DATA ? (int) Math.min(Integer.MAX_VALUE, chunkRemaining) : 0;
    }

    @Override
    protected int readBody(byte[] b, int off, int len) throws IOException {
        while (true) {
            switch (state) {
                case SIZE -> readChunkSize();
                case DATA -> {
                    int n = in.read(b, off, (int) Math.min(len, chunkRemaining));
                    if (n < 0) {
                        throw new EOFException();
                    }
                    chunkRemaining -= n;
                    if (chunkRemaining == 0) {
                        state = State.DATA_END;
                    }
                    return n;
                }
                case DATA_END -> {
                    expectCrlf();
                    state = State.SIZE;
                }
                case DONE -> {
                    return -1;
                }
            }
        }
    }

    /** {@code chunk-size [ chunk-ext ] CRLF}; a zero size continues into the trailer section. */
    private void readChunkSize() throws IOException {
        int lf = FieldLines.findLineEnd(in, config.maxChunkLineLength());
        if (lf == FieldLines.TOO_LONG) {
            throw bad("chunk line too long");
        }
        if (lf == FieldLines.END_OF_STREAM) {
            throw new EOFException();
        }
        byte[] b = in.buffer();
        int start = in.position();
        int end;
        try {
            end = FieldLines.contentEnd(b, start, lf, ProtocolError.BAD_CHUNK);
        } catch (BadRequestException e) {
            throw bad(e.getMessage());
        }
        int i = start;
        long size = 0;
        while (i < end && CharClasses.isHexDigit(b[i])) {
            if (i - start >= 16) {
                throw bad("chunk size has more than 16 hex digits");
            }
            if (size > Long.MAX_VALUE >> 4) {
                throw bad("chunk size overflows");
            }
            size = size << 4 | CharClasses.hexValue(b[i]);
            i++;
        }
        if (i == start) {
            throw bad("missing chunk size");
        }
        checkExtensions(b, i, end);
        in.position(lf + 1);
        total += size;
        if (total > config.maxRequestBodySize()) {
            throw new BodyException(413, ProtocolError.BODY_TOO_LARGE, "request body too large");
        }
        if (size == 0) {
            readTrailers();
            state = State.DONE;
        } else {
            chunkRemaining = size;
            state = State.DATA;
        }
    }

    /**
     * {@code *( BWS ";" BWS ext-name [ BWS "=" BWS ( token / quoted-string ) ] )}: whitespace only around
     * {@code ;} and {@code =}, none at the end of the line (RFC 9112 §7.1.1) — a lenient chunk line is what
     * request smuggling builds on.
     */
    private static void checkExtensions(byte[] b, int i, int end) throws BodyException {
        while (true) {
            int afterSpace = skipWhitespace(b, i, end);
            if (afterSpace == end) {
                if (afterSpace != i) {
                    throw bad("whitespace at the end of a chunk line");
                }
                return;
            }
            i = afterSpace;
            if (b[i] != ';') {
                throw bad("malformed chunk extension");
            }
            i = skipWhitespace(b, i + 1, end);
            int nameStart = i;
            while (i < end && CharClasses.isToken(b[i])) {
                i++;
            }
            if (i == nameStart) {
                throw bad("malformed chunk extension name");
            }
            int beforeEquals = skipWhitespace(b, i, end);
            if (beforeEquals < end && b[beforeEquals] == '=') {
                i = skipWhitespace(b, beforeEquals + 1, end);
                if (i < end && b[i] == '"') {
                    i++;
                    while (i < end && b[i] != '"') {
                        if (b[i] == '\\') {
                            i++;
                        }
                        if (i < end && !CharClasses.isFieldValue(b[i])) {
                            throw bad("malformed chunk extension value");
                        }
                        i++;
                    }
                    if (i >= end) {
                        throw bad("unterminated quoted chunk extension value");
                    }
                    i++;
                } else {
                    int valueStart = i;
                    while (i < end && CharClasses.isToken(b[i])) {
                        i++;
                    }
                    if (i == valueStart) {
                        throw bad("malformed chunk extension value");
                    }
                }
            }
        }
    }

    private static int skipWhitespace(byte[] b, int i, int end) {
        while (i < end && (b[i] == ' ' || b[i] == '\t')) {
            i++;
        }
        return i;
    }

    private void expectCrlf() throws IOException {
        while (in.buffered() < 2) {
            if (in.fill() < 0) {
                throw new EOFException();
            }
        }
        byte[] b = in.buffer();
        int p = in.position();
        if (b[p] != '\r' || b[p + 1] != '\n') {
            throw bad("chunk data not followed by CRLF");
        }
        in.position(p + 2);
    }

    /** {@code trailer-section CRLF}, under the same size and count limits as the header section. */
    private void readTrailers() throws IOException {
        try {
            FieldLines.readSection(in, config.maxHeaderSize(), config.maxHeaderCount(), trailers, ProtocolError.BAD_CHUNK);
        } catch (BadRequestException e) {
            if (e.status() == 431) {
                throw new BodyException(431, ProtocolError.HEADERS_TOO_LARGE, "trailer section too large");
            }
            throw bad(e.getMessage());
        }
    }

    private static BodyException bad(String message) {
        return new BodyException(400, ProtocolError.BAD_CHUNK, message);
    }
}
