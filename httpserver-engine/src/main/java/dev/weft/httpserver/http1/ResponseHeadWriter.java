package dev.weft.httpserver.http1;

import com.sun.net.httpserver.Headers;
import dev.weft.httpserver.core.ConnectionOutput;
import dev.weft.httpserver.core.DateCache;
import dev.weft.httpserver.core.ResponseFraming;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Writes a response head into the connection buffer in one pass: status line, the handler's fields, then
 * the fields the {@link ResponseFraming} decided ({@code Content-Length}, {@code Date}, {@code Server}) and
 * those HTTP/1.1 owns ({@code Transfer-Encoding}, {@code Connection}).
 */
final class ResponseHeadWriter {

    private static final byte[][] STATUS_LINES = new byte[600][];
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] CHUNKED = "Transfer-Encoding: chunked\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONTENT_LENGTH = "Content-Length: ".getBytes(StandardCharsets.US_ASCII);

    static {
        for (int s = 100; s < 600; s++) {
            STATUS_LINES[s] = ("HTTP/1.1 " + s + " " + ReasonPhrases.of(s) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        }
    }

    private ResponseHeadWriter() {
    }

    /**
     * Writes the head as {@code framing} decided; the caller has validated {@code headers}.
     *
     * @param chunked    whether to send {@code Transfer-Encoding: chunked} (a streamed body on HTTP/1.1)
     * @param connection our {@code Connection} value ({@code close}, {@code keep-alive}, empty for none), or
     *                   {@code null} to send none and pass the handler's through (a protocol switch)
     */
    static void write(ConnectionOutput out, int status, Headers headers, ResponseFraming framing, boolean chunked,
                      String connection) throws IOException {
        byte[] statusLine = status >= 100 && status < 600 ? STATUS_LINES[status] : null;
        if (statusLine == null) {
            throw new IOException("invalid status code " + status);
        }
        out.write(statusLine, 0, statusLine.length);
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            String name = e.getKey();
            switch (name) {
                case "Content-length" -> {
                    if (!framing.keepHandlerLength()) {
                        continue;
                    }
                }
                case "Transfer-encoding" -> {
                    continue;
                }
                case "Connection" -> {
                    if (connection != null) {
                        continue;
                    }
                }
                default -> {
                }
            }
            for (String v : e.getValue()) {
                out.writeLatin1(name);
                out.write(':');
                out.write(' ');
                out.writeLatin1(v);
                out.write(CRLF, 0, 2);
            }
        }
        if (framing.contentLength() >= 0) {
            out.write(CONTENT_LENGTH, 0, CONTENT_LENGTH.length);
            out.writeDecimal(framing.contentLength());
            out.write(CRLF, 0, 2);
        }
        if (chunked) {
            out.write(CHUNKED, 0, CHUNKED.length);
        }
        if (connection != null && !connection.isEmpty()) {
            out.writeLatin1("Connection: ");
            out.writeLatin1(connection);
            out.write(CRLF, 0, 2);
        }
        if (framing.addDate()) {
            byte[] date = DateCache.headerLine();
            out.write(date, 0, date.length);
        }
        if (framing.server() != null) {
            out.writeLatin1("Server: ");
            out.writeLatin1(framing.server());
            out.write(CRLF, 0, 2);
        }
        out.write(CRLF, 0, 2);
    }

    /** Writes a complete short error response ({@code text/plain}, {@code Connection: close}). */
    static void writeError(ConnectionOutput out, int status, String message, String serverHeader) throws IOException {
        byte[] body = (status + " " + ReasonPhrases.of(status) + (message == null ? "" : ": " + message) + "\n")
                .getBytes(StandardCharsets.UTF_8);
        Headers h = new Headers();
        h.set("Content-Type", "text/plain; charset=utf-8");
        write(out, status, h, ResponseFraming.of("GET", status, body.length, 0, serverHeader), false, "close");
        out.write(body, 0, body.length);
    }
}
