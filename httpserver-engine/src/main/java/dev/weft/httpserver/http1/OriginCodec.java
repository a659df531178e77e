package dev.weft.httpserver.http1;

import com.sun.net.httpserver.Headers;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.ConnectionInput;
import dev.weft.httpserver.core.ConnectionOutput;
import dev.weft.httpserver.core.RequestHeaders;
import dev.weft.httpserver.stats.ProtocolError;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ProtocolException;

/**
 * The client side of HTTP/1.1, for the engine's proxy talking to an origin server: reads response heads
 * (RFC 9112 §4) and frames message bodies (§6, §7) with the same parsers the server side uses for requests.
 * Stateless; the streams it returns belong to the thread that drives the origin connection.
 */
public final class OriginCodec {

    private static final Runnable NOTHING = () -> { };

    /**
     * A response head as received.
     *
     * @param minorVersion 0 or 1 ({@code HTTP/1.x})
     * @param status       the three-digit status code
     * @param headers      the header fields, read-only
     */
    public record ResponseHead(int minorVersion, int status, Headers headers) {
    }

    private OriginCodec() {
    }

    /**
     * Reads one response head. The status line and the fields together may take at most {@code maxBytes}.
     *
     * @throws ProtocolException for a malformed or oversized head
     * @throws EOFException      when the origin closed before the head was complete
     */
    public static ResponseHead readHead(ConnectionInput in, int maxBytes, int maxCount) throws IOException {
        int lf = FieldLines.findLineEnd(in, maxBytes);
        if (lf == FieldLines.TOO_LONG) {
            throw new ProtocolException("status line too long");
        }
        if (lf == FieldLines.END_OF_STREAM) {
            throw new EOFException("origin closed the connection before responding");
        }
        byte[] b = in.buffer();
        int start = in.position();
        try {
            int end = FieldLines.contentEnd(b, start, lf, ProtocolError.BAD_HEADER);
            // status-line = HTTP-version SP status-code SP [ reason-phrase ]; the reason is ignored (§4).
            if (end - start < 12 || b[start + 8] != ' ' || !isStatus(b, start + 9)
                    || end > start + 12 && b[start + 12] != ' ') {
                throw new ProtocolException("malformed status line");
            }
            int minor = version(b, start);
            int status = (b[start + 9] - '0') * 100 + (b[start + 10] - '0') * 10 + (b[start + 11] - '0');
            int lineBytes = lf + 1 - start;
            in.position(lf + 1);
            RequestHeaders headers = new RequestHeaders();
            FieldLines.readSection(in, maxBytes - lineBytes, maxCount, headers, ProtocolError.BAD_HEADER);
            return new ResponseHead(minor, status, headers);
        } catch (BadRequestException e) {
            throw new ProtocolException("malformed response head: " + e.getMessage());
        }
    }

    private static boolean isStatus(byte[] b, int at) {
        return b[at] >= '1' && b[at] <= '5' && isDigit(b[at + 1]) && isDigit(b[at + 2]);
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    private static int version(byte[] b, int at) throws ProtocolException {
        if (b[at] != 'H' || b[at + 1] != 'T' || b[at + 2] != 'T' || b[at + 3] != 'P' || b[at + 4] != '/'
                || b[at + 5] != '1' || b[at + 6] != '.' || (b[at + 7] != '0' && b[at + 7] != '1')) {
            throw new ProtocolException("not an HTTP/1.x response");
        }
        return b[at + 7] - '0';
    }

    /**
     * The body of {@code head} by RFC 9112 §6.3: none for {@code HEAD}, 1xx, 204 and 304; chunked when
     * {@code chunked} is the only transfer coding; else {@code Content-Length}; else up to the close.
     *
     * @param limits the trailer section's size and count limits ({@code maxHeaderSize}, {@code maxHeaderCount})
     *               and {@code maxChunkLineLength}
     * @throws ProtocolException when the framing cannot be trusted (other codings, a bad or repeated length)
     */
    public static InputStream body(ConnectionInput in, ResponseHead head, boolean headRequest, ServerConfig limits)
            throws ProtocolException {
        int status = head.status();
        if (headRequest || status < 200 || status == 204 || status == 304) {
            return new RequestBody.Empty(in);
        }
        String te = head.headers().getFirst("Transfer-Encoding");
        if (te != null) {
            if (head.headers().get("Transfer-Encoding").size() != 1 || !te.strip().equalsIgnoreCase("chunked")) {
                throw new ProtocolException("unsupported transfer coding: " + te);
            }
            // §6.3: Transfer-Encoding overrides Content-Length (the connection is never reused here).
            return new ChunkedInputStream(in, limits, null);
        }
        var lengths = head.headers().get("Content-Length");
        if (lengths != null) {
            if (lengths.size() != 1) {
                throw new ProtocolException("repeated Content-Length in response");
            }
            long length;
            try {
                length = RequestParser.parseContentLength(lengths.get(0));
            } catch (BadRequestException e) {
                throw new ProtocolException("invalid Content-Length in response: " + lengths);
            }
            return length == 0 ? new RequestBody.Empty(in)
                    : new FixedLengthInputStream(in, length, (int) limits.bodyReadTimeout().toMillis(), null);
        }
        return new CloseDelimited(in);
    }

    /** The trailer fields of a body from {@link #body} once read to its end; {@code null} if it has none. */
    public static Headers trailers(InputStream body) {
        return body instanceof ChunkedInputStream c ? c.trailers() : null;
    }

    /** A chunked body writer (RFC 9112 §7.1); closing it writes the last chunk but not the connection. */
    public static OutputStream chunkedBody(ConnectionOutput out) {
        return new ChunkedOutputStream(out, NOTHING);
    }

    /** A body writer of exactly {@code length} bytes; closing it early throws. */
    public static OutputStream fixedBody(ConnectionOutput out, long length) {
        return new FixedLengthOutputStream(out, length, NOTHING);
    }

    /** A response body that ends when the origin closes the connection (RFC 9112 §6.3, last rule). */
    private static final class CloseDelimited extends InputStream {
        private final ConnectionInput in;

        CloseDelimited(ConnectionInput in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return in.read(b, off, len);
        }
    }
}
