package dev.weft.micronaut.reference;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * An HTTP/1.1 client over a plain socket that sends exactly the bytes it is given, when it is told to, so that it
 * can stop in the middle of a request like a stalled client; it reports what the server answered and when the
 * server ended the connection.
 */
final class RawHttpConnection implements Closeable {

    /** Longest any read waits: only a guard against a server that never ends the connection. */
    private static final int GUARD_MILLIS = 30_000;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    /** What came back before the server ended the connection, and when it ended ({@link System#nanoTime()}). */
    record Ending(String received, long endedNanos) {
    }

    RawHttpConnection(URI base) throws IOException {
        socket = new Socket(base.getHost(), base.getPort());
        socket.setSoTimeout(GUARD_MILLIS);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    void send(String ascii) throws IOException {
        out.write(ascii.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** Reads one response framed by {@code Content-Length}: its status line and body, e.g. {@code HTTP/1.1 200 OK | hi}. */
    String readResponse() throws IOException {
        String head = RawWebSocket.readHead(in);
        int length = 0;
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
                length = Integer.parseInt(line.substring(colon + 1).trim());
            }
        }
        byte[] body = in.readNBytes(length);
        return statusLine(head) + " | " + new String(body, StandardCharsets.UTF_8);
    }

    /** Reads until the server ends the connection (by closing or resetting it). */
    Ending readToEnd() throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                received.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException stalled) {
            throw new IOException("The server neither answered nor ended the connection within "
                    + GUARD_MILLIS + " ms; received: " + received, stalled);
        } catch (SocketException reset) {
            // ended all the same
        }
        return new Ending(received.toString(StandardCharsets.ISO_8859_1), System.nanoTime());
    }

    /** The status line of {@code response}, or {@code none} when nothing came. */
    static String statusLine(String response) {
        if (response.isEmpty()) {
            return "none";
        }
        int end = response.indexOf("\r\n");
        return end < 0 ? response : response.substring(0, end);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
