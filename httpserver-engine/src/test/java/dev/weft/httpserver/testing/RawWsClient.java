package dev.weft.httpserver.testing;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A raw-frame WebSocket client for conformance tests: writes any frame, legal or not (mask, RSV bits,
 * opcodes and length encodings are the caller's), and reads the server's frames as they are, so each
 * framing rule can be tested on the wire.
 */
public final class RawWsClient implements AutoCloseable {

    /** A frame as the server sent it. */
    public record Frame(boolean fin, int rsv, int opcode, boolean masked, byte[] payload) {
        public String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }

        /** The close code of a close frame, or 1005 when it has none. */
        public int closeCode() {
            return payload.length >= 2 ? ((payload[0] & 0xff) << 8) | (payload[1] & 0xff) : 1005;
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    public final int status;
    public final Map<String, String> headers;

    private RawWsClient(Socket socket, int status, Map<String, String> headers, InputStream in) throws IOException {
        this.socket = socket;
        this.in = in;
        this.out = socket.getOutputStream();
        this.status = status;
        this.headers = headers;
    }

    /** Opens a session on {@code path}; {@code extensions} is the Sec-WebSocket-Extensions offer, or null. */
    public static RawWsClient open(int port, String path, String extensions) throws IOException {
        StringBuilder req = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
                + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + "Sec-WebSocket-Version: 13\r\n");
        if (extensions != null) {
            req.append("Sec-WebSocket-Extensions: ").append(extensions).append("\r\n");
        }
        return handshake(port, req.append("\r\n").toString());
    }

    /** Opens the test servers' {@code /echo} session, offering {@code extensions} unless null; fails unless 101. */
    public static RawWsClient openEcho(int port, String extensions) throws IOException {
        RawWsClient c = open(port, "/echo", extensions);
        if (c.status != 101) {
            c.close();
            throw new AssertionError("expected 101 Switching Protocols, got " + c.status);
        }
        return c;
    }

    /** Sends {@code request} as it is and reads the response head. */
    public static RawWsClient handshake(int port, String request) throws IOException {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(10_000);
        s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        s.getOutputStream().flush();
        InputStream in = s.getInputStream();
        String statusLine = line(in);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String l; !(l = line(in)).isEmpty(); ) {
            int colon = l.indexOf(':');
            headers.merge(l.substring(0, colon).toLowerCase(Locale.ROOT), l.substring(colon + 1).strip(),
                    (a, b) -> a + ", " + b);
        }
        return new RawWsClient(s, Integer.parseInt(statusLine.split(" ")[1]), headers, in);
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c; (c = in.read()) != '\n'; ) {
            if (c < 0) {
                throw new EOFException("connection closed in the response head");
            }
            if (c != '\r') {
                b.write(c);
            }
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    /** Reads the response body of a refused handshake (Content-Length framed). */
    public String body() throws IOException {
        int n = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        return new String(in.readNBytes(n), StandardCharsets.UTF_8);
    }

    /** Sends a masked frame. */
    public void send(boolean fin, int opcode, byte[] payload) throws IOException {
        send(fin, 0, opcode, payload, true);
    }

    public void sendText(String text) throws IOException {
        send(true, 0x1, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends a frame with the given RSV bits (0–7) and mask choice, shortest length encoding. */
    public void send(boolean fin, int rsv, int opcode, byte[] payload, boolean masked) throws IOException {
        out.write(frame(fin, rsv, opcode, payload, masked));
        out.flush();
    }

    /** Sends bytes as they are (headers with odd length encodings, partial frames). */
    public void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** A frame as a client would send it. */
    public static byte[] frame(boolean fin, int rsv, int opcode, byte[] payload, boolean masked) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write((fin ? 0x80 : 0) | (rsv << 4) | opcode);
        int maskBit = masked ? 0x80 : 0;
        int len = payload.length;
        if (len < 126) {
            b.write(maskBit | len);
        } else if (len <= 0xffff) {
            b.write(maskBit | 126);
            b.write(len >>> 8);
            b.write(len);
        } else {
            b.write(maskBit | 127);
            for (int i = 7; i >= 0; i--) {
                b.write((int) ((long) len >>> (8 * i)));
            }
        }
        byte[] key = new byte[4];
        if (masked) {
            ThreadLocalRandom.current().nextBytes(key);
            b.write(key, 0, 4);
        }
        for (int i = 0; i < len; i++) {
            b.write(payload[i] ^ key[i & 3]);
        }
        return b.toByteArray();
    }

    /** Reads the server's next frame (fails if it takes longer than 10 s). */
    public Frame read() throws IOException {
        int b0 = readByte();
        int b1 = readByte();
        long len = b1 & 0x7f;
        if (len == 126) {
            len = (readByte() << 8) | readByte();
        } else if (len == 127) {
            len = 0;
            for (int i = 0; i < 8; i++) {
                len = (len << 8) | readByte();
            }
        }
        boolean masked = (b1 & 0x80) != 0;
        byte[] key = masked ? in.readNBytes(4) : null;
        byte[] payload = in.readNBytes((int) len);
        if (payload.length != len) {
            throw new EOFException("connection closed in a frame payload");
        }
        if (masked) {
            for (int i = 0; i < payload.length; i++) {
                payload[i] ^= key[i & 3];
            }
        }
        return new Frame((b0 & 0x80) != 0, (b0 >>> 4) & 7, b0 & 0x0f, masked, payload);
    }

    private int readByte() throws IOException {
        int c = in.read();
        if (c < 0) {
            throw new EOFException("connection closed");
        }
        return c;
    }

    /** Reads frames until a close frame, skipping others; returns it. */
    public Frame readClose() throws IOException {
        while (true) {
            Frame f = read();
            if (f.opcode() == 0x8) {
                return f;
            }
        }
    }

    /** Whether the server closed the TCP connection (end of stream) within {@code millis}. */
    public boolean closedByServer(int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            while (true) {
                int c = in.read();
                if (c < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    /** Sends a masked close frame with {@code code} (and no reason). */
    public void sendClose(int code) throws IOException {
        send(true, 0x8, new byte[] {(byte) (code >>> 8), (byte) code});
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
