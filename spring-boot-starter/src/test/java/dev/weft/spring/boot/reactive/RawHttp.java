package dev.weft.spring.boot.reactive;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** Sends raw request bytes and returns everything the server sends until it closes (or 5 s of silence). */
final class RawHttp {

    private RawHttp() {
    }

    /**
     * The raw response to {@code GET target HTTP/1.1} with {@code Host: localhost}, these header lines and
     * {@code Connection: close}.
     */
    static String get(int port, String target, String... headers) throws IOException {
        StringBuilder request = new StringBuilder("GET ").append(target).append(" HTTP/1.1\r\nHost: localhost\r\n");
        for (String header : headers) {
            request.append(header).append("\r\n");
        }
        return exchange(port, request.append("Connection: close\r\n\r\n").toString());
    }

    /** The status code of an HTTP/1.1 response. */
    static int status(String response) {
        if (!response.startsWith("HTTP/1.1 ")) {
            throw new AssertionError("not an HTTP/1.1 response: " + response);
        }
        return Integer.parseInt(response.substring(9, 12));
    }

    /** What follows the head of a response. */
    static String body(String response) {
        return response.substring(response.indexOf("\r\n\r\n") + 4);
    }

    /** The raw response; the request should carry {@code Connection: close}. */
    static String exchange(int port, String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    received.write(buffer, 0, n);
                }
            } catch (SocketTimeoutException ex) {
                throw new IOException("server neither finished nor closed; got: "
                        + received.toString(StandardCharsets.ISO_8859_1), ex);
            } catch (IOException ex) {
                // a reset after the bytes we have: keep what arrived
            }
            return received.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
