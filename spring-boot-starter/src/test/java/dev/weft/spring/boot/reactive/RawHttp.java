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
