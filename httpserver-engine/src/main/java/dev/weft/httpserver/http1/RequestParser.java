package dev.weft.httpserver.http1;

import dev.weft.httpserver.core.CharClasses;
import dev.weft.httpserver.core.RequestHeaders;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.ConnectionInput;
import dev.weft.httpserver.http1.RequestHead.TargetForm;
import dev.weft.httpserver.stats.ProtocolError;

import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Parses request heads (RFC 9112 §2–§3, §5–§6) straight from the connection's byte buffer, strictly: any
 * ambiguity a request-smuggling attack could use is rejected rather than guessed at.
 *
 * <p>Decisions where the RFC leaves a choice: lines must end in CRLF (a bare LF or bare CR is a 400,
 * §2.2); obs-fold is a 400 (§5.2); repeated {@code Content-Length} fields are a 400 even when equal
 * (§6.3 allows either); empty lines before the request line are skipped (§2.2).
 */
final class RequestParser {

    private final ServerConfig config;

    RequestParser(ServerConfig config) {
        this.config = config;
    }

    /**
     * Reads one request head.
     *
     * @return the head, or {@code null} when the client closed the connection before sending a byte
     * @throws BadRequestException for a malformed or unacceptable head
     * @throws EOFException        when the client closed in the middle of a head
     */
    RequestHead parse(ConnectionInput in) throws IOException, BadRequestException {
        int lineEnd;
        int skipped = 0;
        while (true) {
            lineEnd = FieldLines.findLineEnd(in, config.maxRequestLineLength());
            if (lineEnd == FieldLines.END_OF_STREAM) {
                return null;
            }
            if (lineEnd == FieldLines.TOO_LONG) {
                throw lineTooLong(in, config.maxRequestLineLength());
            }
            int start = in.position();
            if (lineEnd - start == 1 && in.buffer()[start] == '\r') {
                // RFC 9112 §2.2: a server SHOULD ignore at least one empty line before the request line.
                skipped += 2;
                if (skipped > config.maxRequestLineLength()) {
                    throw bad(400, ProtocolError.BAD_REQUEST_LINE, "too many empty lines");
                }
                in.position(lineEnd + 1);
                continue;
            }
            break;
        }
        byte[] b = in.buffer();
        int start = in.position();
        int end = FieldLines.contentEnd(b, start, lineEnd, ProtocolError.BAD_REQUEST_LINE);
        if (end - start > config.maxRequestLineLength()) {
            throw lineTooLong(in, config.maxRequestLineLength());
        }

        int sp1 = start;
        while (sp1 < end && CharClasses.isToken(b[sp1])) {
            sp1++;
        }
        if (sp1 == start || sp1 == end || b[sp1] != ' ') {
            throw bad(400, ProtocolError.BAD_REQUEST_LINE, "malformed method");
        }
        int targetStart = sp1 + 1;
        int sp2 = targetStart;
        while (sp2 < end && b[sp2] != ' ') {
            sp2++;
        }
        if (sp2 == targetStart || sp2 == end) {
            throw bad(400, ProtocolError.BAD_REQUEST_LINE, "malformed request line");
        }
        int minor = parseVersion(b, sp2 + 1, end);
        String method = Methods.of(b, start, sp1);
        TargetForm form = RequestTargets.classify(method, b, targetStart, sp2);
        String target = new String(b, targetStart, sp2 - targetStart, StandardCharsets.US_ASCII);
        in.position(lineEnd + 1);

        return parseFields(in, method, target, form, minor);
    }

    private RequestHead parseFields(ConnectionInput in, String method, String target, TargetForm form, int minor)
            throws IOException, BadRequestException {
        RequestHeaders headers = new RequestHeaders();
        int headerBytes = 0;
        int count = 0;
        int hosts = 0;
        String host = null;
        int contentLengths = 0;
        long contentLength = -1;
        String transferEncoding = null;
        String expect = null;
        boolean close = false;
        boolean keepAliveToken = false;

        while (true) {
            int lineEnd = FieldLines.findLineEnd(in, config.maxHeaderSize() - headerBytes);
            if (lineEnd == FieldLines.TOO_LONG) {
                throw bad(431, ProtocolError.HEADERS_TOO_LARGE, "header section too large");
            }
            if (lineEnd == FieldLines.END_OF_STREAM) {
                throw new EOFException("connection closed in the middle of a request head");
            }
            byte[] b = in.buffer();
            int start = in.position();
            headerBytes += lineEnd + 1 - start;
            if (headerBytes > config.maxHeaderSize()) {
                throw bad(431, ProtocolError.HEADERS_TOO_LARGE, "header section too large");
            }
            int end = FieldLines.fieldContentEnd(b, start, lineEnd, ProtocolError.BAD_HEADER);
            if (end == start) {
                in.position(lineEnd + 1);
                break;
            }
            if (++count > config.maxHeaderCount()) {
                throw bad(431, ProtocolError.HEADERS_TOO_LARGE, "too many header fields");
            }
            String name = FieldLines.parseField(b, start, end, headers);
            in.position(lineEnd + 1);
            switch (name) {
                case "Host" -> {
                    hosts++;
                    host = headers.lastValue();
                }
                case "Content-length" -> {
                    contentLengths++;
                    contentLength = parseContentLength(headers.lastValue());
                }
                case "Transfer-encoding" -> {
                    String v = headers.lastValue();
                    transferEncoding = transferEncoding == null ? v : transferEncoding + "," + v;
                }
                case "Expect" -> {
                    String v = headers.lastValue();
                    expect = expect == null ? v : expect + "," + v;
                }
                case "Connection" -> {
                    String v = headers.lastValue();
                    close |= hasToken(v, "close");
                    keepAliveToken |= hasToken(v, "keep-alive");
                }
                default -> {
                }
            }
        }

        // RFC 9112 §3.2: a server MUST respond with 400 to an HTTP/1.1 request without Host or with
        // more than one Host field, or with an invalid Host field value.
        if (minor == 1 && hosts == 0 || hosts > 1) {
            throw bad(400, ProtocolError.BAD_HOST, hosts == 0 ? "missing Host" : "duplicate Host");
        }
        if (host != null && !RequestTargets.isValidHost(host)) {
            throw bad(400, ProtocolError.BAD_HOST, "invalid Host");
        }
        if (host != null && host.isEmpty() && form != TargetForm.ABSOLUTE) {
            // The target's authority comes from Host (RFC 9112 §3.3), and an http(s) URI with an empty host is
            // invalid (RFC 9110 §4.2.1, §4.2.2). An absolute-form target carries its own authority (§3.2.2).
            throw bad(400, ProtocolError.BAD_HOST, "empty Host");
        }
        if (contentLengths > 1) {
            throw bad(400, ProtocolError.BAD_CONTENT_LENGTH, "duplicate Content-Length");
        }
        boolean chunked = false;
        if (transferEncoding != null) {
            // RFC 9112 §6.1: TE in HTTP/1.0 means faulty framing; §6.3: TE with CL MUST be treated as an error
            // (we reject it: ambiguity is what request smuggling exploits).
            if (minor == 0) {
                throw bad(400, ProtocolError.BAD_TRANSFER_ENCODING, "Transfer-Encoding in HTTP/1.0");
            }
            if (contentLengths > 0) {
                throw bad(400, ProtocolError.BAD_TRANSFER_ENCODING, "Content-Length with Transfer-Encoding");
            }
            checkTransferEncoding(transferEncoding);
            chunked = true;
        }
        if (contentLength > config.maxRequestBodySize()) {
            throw bad(413, ProtocolError.BODY_TOO_LARGE, "request body too large");
        }
        boolean expectContinue = false;
        if (expect != null && minor == 1) {
            // RFC 9110 §10.1.1: a 100-continue expectation in an HTTP/1.0 request MUST be ignored.
            if (!expect.trim().equalsIgnoreCase("100-continue")) {
                throw bad(417, ProtocolError.EXPECTATION_FAILED, "unsupported expectation");
            }
            expectContinue = chunked || contentLength > 0;
        }
        boolean keepAlive = minor == 1 ? !close : keepAliveToken && !close;
        return new RequestHead(method, target, form, minor, headers.freeze(), chunked ? -1 : contentLength,
                chunked, expectContinue, keepAlive);
    }

    /**
     * The answer to a request line over the limit: {@code 414} names the target, so it is given only when
     * the method ended within the line; a method token longer than the limit is one no server implements
     * ({@code 501}, RFC 9110 §9.1), and a line that is not a method at all is malformed ({@code 400}).
     */
    private static BadRequestException lineTooLong(ConnectionInput in, int maxLine) {
        byte[] b = in.buffer();
        int end = Math.min(in.limit(), in.position() + maxLine);
        for (int i = in.position(); i < end; i++) {
            if (b[i] == ' ') {
                return bad(414, ProtocolError.REQUEST_LINE_TOO_LONG, "request line too long");
            }
            if (!CharClasses.isToken(b[i])) {
                return bad(400, ProtocolError.BAD_REQUEST_LINE, "malformed method");
            }
        }
        return bad(501, ProtocolError.BAD_REQUEST_LINE, "method longer than any implemented");
    }

    /** {@code HTTP-version = "HTTP/" DIGIT "." DIGIT} (RFC 9112 §2.3); returns the minor version. */
    private static int parseVersion(byte[] b, int from, int end) throws BadRequestException {
        if (end - from != 8 || b[from] != 'H' || b[from + 1] != 'T' || b[from + 2] != 'T' || b[from + 3] != 'P'
                || b[from + 4] != '/' || !isDigit(b[from + 5]) || b[from + 6] != '.' || !isDigit(b[from + 7])) {
            throw bad(400, ProtocolError.BAD_VERSION, "malformed HTTP version");
        }
        int major = b[from + 5] - '0';
        int minor = b[from + 7] - '0';
        if (major != 1 || minor > 1) {
            throw bad(505, ProtocolError.BAD_VERSION, "HTTP version not supported");
        }
        return minor;
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    /** {@code Content-Length = 1*DIGIT} (RFC 9110 §8.6); anything else, including a list, is a 400. */
    static long parseContentLength(String v) throws BadRequestException {
        int len = v.length();
        if (len == 0 || len > 18) {
            throw bad(400, ProtocolError.BAD_CONTENT_LENGTH, "invalid Content-Length");
        }
        long n = 0;
        for (int i = 0; i < len; i++) {
            char c = v.charAt(i);
            if (c < '0' || c > '9') {
                throw bad(400, ProtocolError.BAD_CONTENT_LENGTH, "invalid Content-Length");
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    /** Only {@code chunked}, exactly once and last, is served (RFC 9112 §6.1, §7). */
    private static void checkTransferEncoding(String value) throws BadRequestException {
        String[] codings = value.split(",", -1);
        int last = codings.length - 1;
        while (last >= 0 && codings[last].isBlank()) {
            last--;
        }
        if (last < 0 || !codings[last].strip().equalsIgnoreCase("chunked")) {
            throw bad(400, ProtocolError.BAD_TRANSFER_ENCODING, "chunked is not the final transfer coding");
        }
        for (int i = 0; i < last; i++) {
            String c = codings[i].strip();
            if (c.isEmpty()) {
                continue;
            }
            if (c.equalsIgnoreCase("chunked")) {
                throw bad(400, ProtocolError.BAD_TRANSFER_ENCODING, "chunked applied more than once");
            }
            // RFC 9112 §6.1: a transfer coding the server does not understand SHOULD get 501.
            throw bad(501, ProtocolError.BAD_TRANSFER_ENCODING, "unsupported transfer coding");
        }
    }

    private static boolean hasToken(String value, String token) {
        int i = 0;
        int len = value.length();
        while (i < len) {
            int comma = value.indexOf(',', i);
            if (comma < 0) {
                comma = len;
            }
            if (value.substring(i, comma).strip().equalsIgnoreCase(token)) {
                return true;
            }
            i = comma + 1;
        }
        return false;
    }

    static BadRequestException bad(int status, ProtocolError kind, String message) {
        return new BadRequestException(status, kind, message);
    }
}
