package dev.weft.httpserver.forms;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The byte level of a multipart body (RFC 2046 §5.1.1): content runs until the next delimiter
 * {@code CRLF "--" boundary}; a fixed buffer is scanned for it, so memory does not grow with the body. The
 * buffer starts with a virtual CRLF so a body that opens with its first delimiter (no preamble) is found the same
 * way. Used by one thread (the one reading the request).
 */
final class DelimitedInput {

    private final InputStream in;
    private final byte[] delimiter;
    private final byte[] buf;
    private final long maxTotal;
    private int pos;
    private int lim;
    private boolean eof;
    private long consumed;
    // result of the last scan: [pos, dataEnd) is content; the delimiter starts at dataEnd if delimiterNext
    private int dataEnd = -1;
    private boolean delimiterNext;

    DelimitedInput(InputStream in, String boundary, long maxTotal) {
        this.in = in;
        this.delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.US_ASCII);
        this.buf = new byte[Math.max(16 * 1024, delimiter.length * 4)];
        this.maxTotal = maxTotal;
        buf[0] = '\r';
        buf[1] = '\n';
        lim = 2;
    }

    /** Content bytes up to the next delimiter; -1 when the delimiter is next (it is not consumed). */
    int readContent(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (true) {
            if (pos < dataEnd) {
                int n = Math.min(len, dataEnd - pos);
                System.arraycopy(buf, pos, b, off, n);
                pos += n;
                return n;
            }
            if (delimiterNext && pos == dataEnd) {
                return -1;
            }
            scan();
        }
    }

    /**
     * Consumes the delimiter that {@link #readContent} stopped at and what follows it on its line.
     *
     * @return true for the close delimiter ({@code --} follows; the epilogue is not read), false for a part's
     *         delimiter, after which the part's header section starts
     */
    boolean consumeDelimiter() throws IOException {
        pos += delimiter.length;
        dataEnd = -1;
        delimiterNext = false;
        int c = readByte();
        if (c == '-') {
            if (readByte() != '-') {
                throw FormException.malformed("malformed multipart delimiter");
            }
            return true;
        }
        // transport-padding (LWSP) is allowed before the CRLF; bound it like a header line
        int padding = 0;
        while ((c == ' ' || c == '\t') && padding++ < 256) {
            c = readByte();
        }
        if (c != '\r' || readByte() != '\n') {
            throw FormException.malformed("multipart delimiter not followed by CRLF");
        }
        return false;
    }

    /** The next byte, or -1 at the end of the body. */
    int readByte() throws IOException {
        if (pos == lim) {
            fill();
            if (pos == lim) {
                return -1;
            }
        }
        dataEnd = -1;
        delimiterNext = false;
        return buf[pos++] & 0xff;
    }

    private void scan() throws IOException {
        int dl = delimiter.length;
        for (int i = pos; i <= lim - dl; i++) {
            if (buf[i] == '\r' && matches(i, dl)) {
                dataEnd = i;
                delimiterNext = true;
                return;
            }
        }
        // no whole delimiter: keep back a tail that could be the start of one
        int keep = lim;
        for (int i = Math.max(pos, lim - dl + 1); i < lim; i++) {
            if (buf[i] == '\r' && matches(i, lim - i)) {
                keep = i;
                break;
            }
        }
        if (keep > pos) {
            dataEnd = keep;
            delimiterNext = false;
            return;
        }
        if (eof) {
            throw FormException.malformed("multipart body ended before its closing delimiter");
        }
        fill();
    }

    private boolean matches(int at, int length) {
        for (int j = 1; j < length; j++) {
            if (buf[at + j] != delimiter[j]) {
                return false;
            }
        }
        return true;
    }

    private void fill() throws IOException {
        if (eof) {
            return;
        }
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, lim - pos);
            lim -= pos;
            pos = 0;
        }
        dataEnd = -1;
        delimiterNext = false;
        int n = in.read(buf, lim, buf.length - lim);
        if (n < 0) {
            eof = true;
            return;
        }
        consumed += n;
        if (consumed > maxTotal) {
            throw FormException.tooLarge("multipart body larger than " + maxTotal + " bytes");
        }
        lim += n;
    }
}
