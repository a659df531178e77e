package dev.weft.httpserver.http1;

import dev.weft.httpserver.core.CharClasses;
import dev.weft.httpserver.core.RequestHeaders;
import dev.weft.httpserver.core.ConnectionInput;
import dev.weft.httpserver.stats.ProtocolError;

import java.io.EOFException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * CRLF-terminated lines and field lines (RFC 9112 §2.2, §5), read in place from the connection buffer;
 * shared by the header section and the chunked trailer section.
 */
final class FieldLines {

    /** {@link #findLineEnd} result: the line is longer than allowed. */
    static final int TOO_LONG = -2;
    /** {@link #findLineEnd} result: clean end of stream before the line's first byte. */
    static final int END_OF_STREAM = -1;

    /** Eight bytes of a byte array at a time, the first byte lowest. */
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ALL_LF = 0x0A0A0A0A0A0A0A0AL;
    private static final long ALL_ONES = 0x0101010101010101L;
    private static final long ALL_HIGH = 0x8080808080808080L;
    private static final long ALL_SPACE = 0x2020202020202020L;
    private static final long ALL_DEL = 0x7F7F7F7F7F7F7F7FL;

    private FieldLines() {
    }

    /**
     * Finds the LF ending the line that starts at the input's position, reading more as needed.
     *
     * @return the LF's index in {@code in.buffer()}, {@link #END_OF_STREAM} or {@link #TOO_LONG}
     * @throws EOFException when the stream ends inside the line
     */
    static int findLineEnd(ConnectionInput in, int maxLength) throws IOException {
        int scanned = 0;
        while (true) {
            byte[] b = in.buffer();
            int from = in.position();
            int limit = in.limit();
            int i = indexOfLf(b, from + scanned, limit);
            if (i >= 0) {
                return i - from > maxLength + 1 ? TOO_LONG : i;
            }
            scanned = limit - from;
            if (scanned > maxLength + 1) {
                return TOO_LONG;
            }
            int n;
            try {
                n = in.fill();
            } catch (ConnectionInput.BufferFullException e) {
                return TOO_LONG;
            }
            if (n < 0) {
                if (scanned == 0) {
                    return END_OF_STREAM;
                }
                throw new EOFException("connection closed in the middle of a line");
            }
        }
    }

    /** The index of the first LF in {@code b[from, limit)}, or -1; eight bytes at a time. */
    static int indexOfLf(byte[] b, int from, int limit) {
        int i = from;
        for (; i <= limit - Long.BYTES; i += Long.BYTES) {
            long lfs = bytesBelow(word(b, i) ^ ALL_LF, ALL_ONES);
            if (lfs != 0) {
                return i + (Long.numberOfTrailingZeros(lfs) >>> 3);
            }
        }
        for (; i < limit; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** Eight bytes of {@code b} from {@code at}, the first lowest. */
    static long word(byte[] b, int at) {
        return (long) WORDS.get(b, at);
    }

    /**
     * The high bit of each byte of {@code x} below {@code n} (at most 0x80; {@code all} is {@code n} in every byte),
     * exact for the lowest such byte: a higher byte may be marked too, after a borrow from one that was. A byte
     * equal to {@code c} is a byte below 1 of {@code x} XOR {@code c} in every byte.
     */
    private static long bytesBelow(long x, long all) {
        return (x - all) & ~x & ALL_HIGH;
    }

    /**
     * Whether every byte of {@code b[from, to)} may stand in a field value ({@link CharClasses#isFieldValue}: no
     * control byte but HTAB, no DEL); eight bytes at a time, byte by byte only around a byte below SP or a DEL.
     */
    static boolean isFieldValue(byte[] b, int from, int to) {
        int i = from;
        for (; i <= to - Long.BYTES; i += Long.BYTES) {
            long x = word(b, i);
            if ((bytesBelow(x, ALL_SPACE) | bytesBelow(x ^ ALL_DEL, ALL_ONES)) != 0
                    && !isFieldValueBytes(b, i, i + Long.BYTES)) {
                return false;
            }
        }
        return isFieldValueBytes(b, i, to);
    }

    private static boolean isFieldValueBytes(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!CharClasses.isFieldValue(b[i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * Checks the field line {@code [start, lf]} ends in CRLF and returns the index of that CR. A CR anywhere
     * else in a field line is left to {@link #parseField}, which takes only token bytes, whitespace and field
     * value bytes (never a CR) and so refuses it as a 400 without a pass of its own.
     */
    static int fieldContentEnd(byte[] b, int start, int lf, ProtocolError kind) throws BadRequestException {
        if (lf == start || b[lf - 1] != '\r') {
            throw RequestParser.bad(400, kind, "line not terminated by CRLF");
        }
        return lf - 1;
    }

    /**
     * Checks the line {@code [start, lf]} ends in CRLF and has no other CR.
     *
     * @return the index of the terminating CR
     */
    static int contentEnd(byte[] b, int start, int lf, ProtocolError kind) throws BadRequestException {
        if (lf == start || b[lf - 1] != '\r') {
            throw RequestParser.bad(400, kind, "line not terminated by CRLF");
        }
        int end = lf - 1;
        for (int i = start; i < end; i++) {
            if (b[i] == '\r') {
                throw RequestParser.bad(400, kind, "bare CR");
            }
        }
        return end;
    }

    /**
     * Reads a field section up to and including its empty line (RFC 9112 §5) into {@code into}, which is
     * frozen at the end; shared by trailer sections and response heads.
     *
     * @param maxBytes most bytes the section may take, lines and CRLFs included
     * @param maxCount most fields it may hold
     * @throws BadRequestException {@code 431} when larger than either limit, {@code 400} when malformed
     * @throws EOFException        when the stream ends inside the section
     */
    static void readSection(ConnectionInput in, int maxBytes, int maxCount, RequestHeaders into, ProtocolError kind)
            throws IOException, BadRequestException {
        int bytes = 0;
        int count = 0;
        while (true) {
            int lf = findLineEnd(in, maxBytes - bytes);
            if (lf == TOO_LONG) {
                throw RequestParser.bad(431, ProtocolError.HEADERS_TOO_LARGE, "field section too large");
            }
            if (lf == END_OF_STREAM) {
                throw new EOFException("connection closed in the middle of a field section");
            }
            byte[] b = in.buffer();
            int start = in.position();
            bytes += lf + 1 - start;
            if (bytes > maxBytes) {
                throw RequestParser.bad(431, ProtocolError.HEADERS_TOO_LARGE, "field section too large");
            }
            int end = fieldContentEnd(b, start, lf, kind);
            if (end == start) {
                in.position(lf + 1);
                into.freeze();
                return;
            }
            if (++count > maxCount) {
                throw RequestParser.bad(431, ProtocolError.HEADERS_TOO_LARGE, "too many fields");
            }
            parseField(b, start, end, into);
            in.position(lf + 1);
        }
    }

    /**
     * Parses the field line {@code b[start, end)} (CRLF excluded), appends it to {@code into} and returns
     * the normalised field name.
     */
    static String parseField(byte[] b, int start, int end, RequestHeaders into) throws BadRequestException {
        if (b[start] == ' ' || b[start] == '\t') {
            throw RequestParser.bad(400, ProtocolError.BAD_HEADER, "obsolete line folding");
        }
        int colon = start;
        while (colon < end && CharClasses.isToken(b[colon])) {
            colon++;
        }
        if (colon == end || b[colon] != ':') {
            throw RequestParser.bad(400, ProtocolError.BAD_HEADER,
                    colon < end && (b[colon] == ' ' || b[colon] == '\t')
                            ? "whitespace before colon" : "malformed field name");
        }
        if (colon == start) {
            throw RequestParser.bad(400, ProtocolError.BAD_HEADER, "empty field name");
        }
        int vs = colon + 1;
        while (vs < end && (b[vs] == ' ' || b[vs] == '\t')) {
            vs++;
        }
        int ve = end;
        while (ve > vs && (b[ve - 1] == ' ' || b[ve - 1] == '\t')) {
            ve--;
        }
        if (!isFieldValue(b, vs, ve)) {
            throw RequestParser.bad(400, ProtocolError.BAD_HEADER, "control character in field value");
        }
        String name = HeaderNames.normalize(b, start, colon);
        into.append(name, new String(b, vs, ve - vs, StandardCharsets.ISO_8859_1));
        return name;
    }
}
