package dev.weft.httpserver.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A deliberately dumb HTTP/1.1 client over a plain socket, for sending exactly the bytes a test wants and
 * reading back exactly what the server wrote.
 *
 * <p>Every read is bounded by a socket timeout (5 s by default), so a test never hangs on a silent server.
 * Response parsing is strict: lines must end in CRLF, chunked framing must be well formed.
 */
public final class RawHttpClient implements AutoCloseable {

    /** Socket timeout used unless one is given. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    private static final int MAX_LINE = 64 * 1024;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final int timeoutMillis;

    private RawHttpClient(Socket socket, int timeoutMillis) throws IOException {
        this.socket = socket;
        this.timeoutMillis = timeoutMillis;
        socket.setSoTimeout(timeoutMillis);
        socket.setTcpNoDelay(true);
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Connects to {@code 127.0.0.1:port} with the default timeout. */
    public static RawHttpClient connect(int port) throws IOException {
        return connect(port, DEFAULT_TIMEOUT);
    }

    /** Connects to {@code 127.0.0.1:port}; {@code timeout} bounds the connect and every read. */
    public static RawHttpClient connect(int port, Duration timeout) throws IOException {
        return connect(port, timeout, 0);
    }

    /**
     * Connects with a receive buffer of {@code receiveBufferSize} bytes (set before connecting, so that the
     * TCP window is small too), for a client that reads slowly or not at all; 0 for the system's default.
     */
    public static RawHttpClient connect(int port, Duration timeout, int receiveBufferSize) throws IOException {
        int millis = Math.toIntExact(timeout.toMillis());
        Socket socket = new Socket();
        try {
            if (receiveBufferSize > 0) {
                socket.setReceiveBufferSize(receiveBufferSize);
            }
            socket.connect(new InetSocketAddress("127.0.0.1", port), millis);
            return new RawHttpClient(socket, millis);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** A minimal HTTP/1.1 GET of {@code target} with {@code Host: localhost}, ready for {@link #send(String)}. */
    public static String get(String target) {
        return "GET " + target + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
    }

    /** Sends the string as ISO-8859-1 bytes (each char becomes one byte). */
    public RawHttpClient send(String latin1) throws IOException {
        return send(latin1.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Sends the bytes in one write. */
    public RawHttpClient send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** Half-closes: the server sees end of stream, we can still read. */
    public void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /** The underlying socket, e.g. to change its timeout. */
    public Socket socket() {
        return socket;
    }

    /**
     * Reads the next response (an interim {@code 1xx} one included). The body is framed by
     * {@code Transfer-Encoding: chunked}, else {@code Content-Length}, else by the server closing.
     *
     * @throws EOFException when the server closes before the status line is complete
     */
    public Response readResponse() throws IOException {
        return readResponse(false);
    }

    /** Reads the next response to a {@code HEAD} request: a head without any body bytes. */
    public Response readHeadResponse() throws IOException {
        return readResponse(true);
    }

    /** Reads the next response that is not an interim {@code 1xx} one, skipping those. */
    public Response readFinalResponse() throws IOException {
        Response r;
        do {
            r = readResponse();
        } while (r.isInterim());
        return r;
    }

    /** Reads responses until the server closes the connection. */
    public List<Response> readResponsesUntilClose() throws IOException {
        List<Response> responses = new ArrayList<>();
        while (true) {
            in.mark(1);
            int b;
            try {
                b = in.read();
            } catch (SocketException reset) {
                return responses;
            }
            if (b < 0) {
                return responses;
            }
            in.reset();
            responses.add(readResponse());
        }
    }

    /** Reads everything until the server closes (a reset counts as a close). */
    public byte[] readUntilClose() throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            for (int n; (n = in.read(buf)) >= 0; ) {
                all.write(buf, 0, n);
            }
        } catch (SocketException reset) {
            // closed with unread data on its side: still closed
        }
        return all.toByteArray();
    }

    /**
     * Whether the server closes the connection within {@code within}: a read returns end of stream (or the
     * connection is reset) before any byte arrives. Returns false if the connection stays open that long or
     * if more bytes arrive instead.
     */
    public boolean serverClosedWithin(Duration within) throws IOException {
        socket.setSoTimeout(Math.toIntExact(Math.max(1, within.toMillis())));
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (SocketException reset) {
            return true;
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(timeoutMillis);
            }
        }
    }

    /**
     * Whether the server closes the connection, waiting for it at most {@link Await#DEFAULT_LIMIT} (a guard
     * against a hang, not a bound the server must meet); see {@link #serverClosedWithin}.
     */
    public boolean serverClosed() throws IOException {
        return serverClosedWithin(Await.DEFAULT_LIMIT);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** Closes, ignoring a failure; for clean-ups. */
    public void closeQuietly() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private Response readResponse(boolean toHead) throws IOException {
        String statusLine = readLine(true);
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/") || parts[1].length() != 3) {
            throw new IOException("malformed status line: " + statusLine);
        }
        int status;
        try {
            status = Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw new IOException("malformed status line: " + statusLine);
        }
        String reason = parts.length == 3 ? parts[2] : "";
        List<Header> headers = readFields();
        Response head = new Response(parts[0], status, reason, headers, new byte[0], List.of(), false);

        boolean noBody = toHead || head.isInterim() || status == 204 || status == 304;
        if (noBody) {
            return head;
        }
        String te = head.header("Transfer-Encoding");
        if (te != null && te.toLowerCase(Locale.ROOT).contains("chunked")) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            List<Header> trailers = readChunkedBody(body);
            return new Response(parts[0], status, reason, headers, body.toByteArray(), trailers, true);
        }
        String cl = head.header("Content-Length");
        byte[] body = cl != null ? readExactly(Long.parseLong(cl.trim())) : readUntilClose();
        return new Response(parts[0], status, reason, headers, body, List.of(), false);
    }

    private List<Header> readFields() throws IOException {
        List<Header> fields = new ArrayList<>();
        for (String line; !(line = readLine(false)).isEmpty(); ) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IOException("malformed header line: " + line);
            }
            fields.add(new Header(line.substring(0, colon), line.substring(colon + 1).strip()));
        }
        return List.copyOf(fields);
    }

    private List<Header> readChunkedBody(ByteArrayOutputStream body) throws IOException {
        while (true) {
            String sizeLine = readLine(false);
            int semicolon = sizeLine.indexOf(';');
            String hex = (semicolon >= 0 ? sizeLine.substring(0, semicolon) : sizeLine).strip();
            long size;
            try {
                size = Long.parseLong(hex, 16);
            } catch (NumberFormatException e) {
                throw new IOException("malformed chunk size line: " + sizeLine);
            }
            if (size < 0) {
                throw new IOException("negative chunk size: " + sizeLine);
            }
            if (size == 0) {
                return readFields();
            }
            body.write(readExactly(size));
            if (!readLine(false).isEmpty()) {
                throw new IOException("chunk data not followed by CRLF");
            }
        }
    }

    private byte[] readExactly(long n) throws IOException {
        if (n < 0 || n > Integer.MAX_VALUE - 8) {
            throw new IOException("unsupported body length " + n);
        }
        byte[] bytes = in.readNBytes((int) n);
        if (bytes.length < n) {
            throw new EOFException("connection closed after " + bytes.length + " of " + n + " body bytes");
        }
        return bytes;
    }

    /** Reads one CRLF-terminated line (without the CRLF) as ISO-8859-1; a bare LF is an error. */
    private String readLine(boolean first) throws IOException {
        StringBuilder line = new StringBuilder();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException(first && line.isEmpty()
                        ? "connection closed before a response"
                        : "connection closed in the middle of a line: " + line);
            }
            if (b == '\n') {
                if (line.isEmpty() || line.charAt(line.length() - 1) != '\r') {
                    throw new IOException("server sent a bare LF after: " + line);
                }
                line.setLength(line.length() - 1);
                return line.toString();
            }
            if (line.length() >= MAX_LINE) {
                throw new IOException("line longer than " + MAX_LINE + " bytes");
            }
            line.append((char) b);
        }
    }

    /** One header or trailer field as received (name case preserved, value stripped of surrounding OWS). */
    public record Header(String name, String value) {
        @Override
        public String toString() {
            return name + ": " + value;
        }
    }

    /**
     * One parsed response.
     *
     * @param version  e.g. {@code HTTP/1.1}
     * @param chunked  whether the body came with chunked framing
     * @param trailers trailer fields of a chunked body (empty otherwise)
     */
    public record Response(String version, int status, String reason, List<Header> headers, byte[] body,
                           List<Header> trailers, boolean chunked) {

        /** First value of the named header (case-insensitive), or null. */
        public String header(String name) {
            for (Header h : headers) {
                if (h.name().equalsIgnoreCase(name)) {
                    return h.value();
                }
            }
            return null;
        }

        /** Every value of the named header (case-insensitive), in order. */
        public List<String> headers(String name) {
            return headers.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(Header::value).toList();
        }

        /** Whether the {@code Connection} header carries the given token. */
        public boolean hasConnectionToken(String token) {
            for (String value : headers("Connection")) {
                for (String t : value.split(",")) {
                    if (t.strip().equalsIgnoreCase(token)) {
                        return true;
                    }
                }
            }
            return false;
        }

        /** Whether this is an interim ({@code 1xx}) response. */
        public boolean isInterim() {
            return status >= 100 && status < 200;
        }

        /** The body decoded as UTF-8. */
        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder(version).append(' ').append(status).append(' ').append(reason);
            headers.forEach(h -> s.append("\n  ").append(h));
            s.append("\n  [").append(body.length).append(" body bytes").append(chunked ? ", chunked" : "")
                    .append(']');
            return s.toString();
        }
    }
}
