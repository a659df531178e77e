package dev.weft.httpserver.http2;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.ExchangeAttributes;
import dev.weft.httpserver.testing.TestServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The handlers the HTTP/2 client tests talk to. Bodies generated or checked here are the pattern
 * {@code byte i = i % 251}, which the Python scripts produce too ({@code body_size}).
 */
final class Http2TestRoutes {

    private Http2TestRoutes() {
    }

    /** Every route below, by context path. */
    static Map<String, HttpHandler> all() {
        Map<String, HttpHandler> m = new LinkedHashMap<>();
        m.put("/", TestServer.echoHandler());
        m.put("/status", Http2TestRoutes::status);
        m.put("/head", Http2TestRoutes::head);
        m.put("/throw-before", ex -> {
            throw new IllegalStateException("handler fails before sending headers (expected by the test)");
        });
        m.put("/throw-after", Http2TestRoutes::throwAfterHeaders);
        m.put("/download", Http2TestRoutes::download);
        m.put("/finish-later", Http2TestRoutes::finishLater);
        m.put("/sha256", Http2TestRoutes::sha256);
        m.put("/trailers", Http2TestRoutes::requestTrailers);
        m.put("/response-trailers", Http2TestRoutes::responseTrailers);
        m.put("/hop-headers", Http2TestRoutes::hopByHopHeaders);
        return m;
    }

    /** The value of {@code name} in the request's query, or {@code fallback}. */
    static String query(HttpExchange ex, String name, String fallback) {
        String q = ex.getRequestURI().getRawQuery();
        if (q != null) {
            for (String part : q.split("&")) {
                int eq = part.indexOf('=');
                if (eq > 0 && part.substring(0, eq).equals(name)) {
                    return part.substring(eq + 1);
                }
            }
        }
        return fallback;
    }

    /**
     * {@code /status?code=N&length=L}: answers N; {@code length} is what goes to sendResponseHeaders (default -1,
     * no body); a positive length sends that many bytes of text.
     */
    static void status(HttpExchange ex) throws IOException {
        TestServer.drain(ex.getRequestBody());
        int code = Integer.parseInt(query(ex, "code", "200"));
        long length = Long.parseLong(query(ex, "length", "-1"));
        ex.sendResponseHeaders(code, length);
        try (OutputStream out = ex.getResponseBody()) {
            if (length > 0) {
                out.write("x".repeat((int) length).getBytes(StandardCharsets.US_ASCII));
            }
        }
    }

    /** Declares a 5-byte body and writes "hello", whatever the method (for HEAD the server must send no body). */
    static void head(HttpExchange ex) throws IOException {
        ex.sendResponseHeaders(200, 5);
        try (OutputStream out = ex.getResponseBody()) {
            out.write("hello".getBytes(StandardCharsets.US_ASCII));
        }
    }

    /** Sends 200 with a body of unknown length, writes and flushes "partial", then throws. */
    static void throwAfterHeaders(HttpExchange ex) throws IOException {
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        out.write("partial".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        throw new IllegalStateException("handler fails after sending headers (expected by the test)");
    }

    /** {@code /download?size=N}: N bytes of the pattern, with their length declared. */
    static void download(HttpExchange ex) throws IOException {
        TestServer.drain(ex.getRequestBody());
        long size = Long.parseLong(query(ex, "size", "0"));
        ex.sendResponseHeaders(200, size == 0 ? -1 : size);
        try (OutputStream out = ex.getResponseBody()) {
            writePattern(out, size);
        }
    }

    /**
     * {@code /finish-later?size=N}: sends the headers (length unknown) and returns from {@code handle()}; another
     * thread, once the handler's thread has ended, writes N bytes of the pattern and closes the exchange. The JDK
     * API allows it: the exchange ends when it is closed, not when {@code handle()} returns.
     */
    static void finishLater(HttpExchange ex) throws IOException {
        TestServer.drain(ex.getRequestBody());
        long size = Long.parseLong(query(ex, "size", "0"));
        ex.sendResponseHeaders(200, 0);
        Thread handler = Thread.currentThread();
        Thread.ofVirtual().name("finish-later").start(() -> {
            try (OutputStream out = ex.getResponseBody()) {
                handler.join();
                writePattern(out, size);
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException("finishing the response failed", e);
            }
        });
    }

    /** Writes {@code size} bytes of the pattern {@code i % 251}. */
    static void writePattern(OutputStream out, long size) throws IOException {
        byte[] buf = patternChunk();
        for (long left = size; left > 0; ) {
            int n = (int) Math.min(left, buf.length);
            out.write(buf, 0, n);
            left -= n;
        }
    }

    /** Reads the body and answers {@code "<length> <sha-256 hex>"}. */
    static void sha256(HttpExchange ex) throws IOException {
        TestServer.respond(ex, 200, lengthAndDigest(ex.getRequestBody()));
    }

    /**
     * Reads the body to its end, then answers the request trailers the handler sees, one {@code name: value}
     * line each (names sorted, lower-cased), or {@code no trailer attribute} when the attribute is missing.
     */
    static void requestTrailers(HttpExchange ex) throws IOException {
        long n = TestServer.drain(ex.getRequestBody());
        Object attr = ex.getAttribute(ExchangeAttributes.REQUEST_TRAILERS);
        StringBuilder s = new StringBuilder("body-length: " + n + "\n");
        if (attr instanceof Headers trailers) {
            Map<String, List<String>> sorted = new TreeMap<>();
            trailers.forEach((name, values) -> sorted.put(name.toLowerCase(java.util.Locale.ROOT), values));
            sorted.forEach((name, values) -> values.forEach(v -> s.append(name).append(": ").append(v).append('\n')));
        } else {
            s.append("no trailer attribute: ").append(attr).append('\n');
        }
        TestServer.respond(ex, 200, s.toString());
    }

    /**
     * {@code /response-trailers?fixed=true|false}: answers "body" (declared length when fixed, else streamed) with
     * the trailers {@code x-digest: abc} and {@code x-rows: 3}, set in
     * {@link ExchangeAttributes#RESPONSE_TRAILERS} before the body is closed.
     */
    static void responseTrailers(HttpExchange ex) throws IOException {
        TestServer.drain(ex.getRequestBody());
        boolean fixed = Boolean.parseBoolean(query(ex, "fixed", "false"));
        byte[] body = "body".getBytes(StandardCharsets.US_ASCII);
        ex.sendResponseHeaders(200, fixed ? body.length : 0);
        OutputStream out = ex.getResponseBody();
        out.write(body);
        Headers trailers = new Headers();
        trailers.add("X-Digest", "abc");
        trailers.add("X-Rows", "3");
        ex.setAttribute(ExchangeAttributes.RESPONSE_TRAILERS, trailers);
        out.close();
    }

    /**
     * Sets connection-specific response fields (which HTTP/2 forbids, RFC 9113 section 8.2.2) beside an ordinary
     * mixed-case one, and answers "ok".
     */
    static void hopByHopHeaders(HttpExchange ex) throws IOException {
        TestServer.drain(ex.getRequestBody());
        Headers h = ex.getResponseHeaders();
        h.set("Connection", "close");
        h.set("Keep-Alive", "timeout=5");
        h.set("Proxy-Connection", "keep-alive");
        h.set("Transfer-Encoding", "chunked");
        h.set("Upgrade", "websocket");
        h.set("X-Mixed-Case", "kept");
        TestServer.respond(ex, 200, "ok");
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code "<length> <sha-256 hex>"} of {@code size} bytes of the pattern. */
    static String patternDigest(long size) {
        MessageDigest md = sha256();
        byte[] buf = patternChunk();
        for (long left = size; left > 0; ) {
            int n = (int) Math.min(left, buf.length);
            md.update(buf, 0, n);
            left -= n;
        }
        return size + " " + HexFormat.of().formatHex(md.digest());
    }

    /** {@code "<length> <sha-256 hex>"} of what {@code in} holds, read to its end and closed. */
    static String lengthAndDigest(InputStream in) throws IOException {
        MessageDigest md = sha256();
        long total = 0;
        try (in) {
            byte[] buf = new byte[64 * 1024];
            for (int n; (n = in.read(buf)) >= 0; ) {
                md.update(buf, 0, n);
                total += n;
            }
        }
        return total + " " + HexFormat.of().formatHex(md.digest());
    }

    /** 64 rounds of the pattern: a whole number of them, so consecutive chunks continue it. */
    private static byte[] patternChunk() {
        byte[] buf = new byte[251 * 64];
        for (int i = 0; i < buf.length; i++) {
            buf[i] = (byte) (i % 251);
        }
        return buf;
    }
}
