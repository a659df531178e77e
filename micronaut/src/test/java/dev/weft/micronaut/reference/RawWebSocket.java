package dev.weft.micronaut.reference;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * A WebSocket client over a plain socket, writing its frames byte by byte so that it can also break RFC 6455 the
 * way a faulty client does (an unmasked frame, text that is not UTF-8), and reading every frame the server sends
 * as it comes, close frames included. Used against Netty and Weft alike.
 */
public final class RawWebSocket implements Closeable {

    public static final int TEXT = 0x1;
    public static final int CLOSE = 0x8;
    public static final int PING = 0x9;
    public static final int PONG = 0xA;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final String key;

    /** A frame received: its opcode and payload; for a close frame {@link #code()} and {@link #reason()}. */
    public record Frame(int opcode, byte[] payload) {

        public int code() {
            return payload.length >= 2 ? ((payload[0] & 0xff) << 8) | (payload[1] & 0xff) : 1005;
        }

        public String reason() {
            return payload.length > 2 ? new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8) : "";
        }

        public String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }

        /** {@code text <message>}, {@code close <code>} or {@code frame <opcode>}. */
        public String describe() {
            return switch (opcode) {
                case TEXT -> "text " + text();
                case CLOSE -> "close " + code();
                default -> "frame " + opcode;
            };
        }
    }

    /** Opens {@code path} on the server at {@code base} (an {@code http://} URI) and completes the handshake. */
    public RawWebSocket(URI base, String path) throws IOException {
        byte[] nonce = new byte[16];
        RANDOM.nextBytes(nonce);
        key = Base64.getEncoder().encodeToString(nonce);
        socket = new Socket(base.getHost(), base.getPort());
        socket.setSoTimeout(20_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
        out.write(("GET " + path + " HTTP/1.1\r\n"
                + "Host: " + base.getHost() + ":" + base.getPort() + "\r\n"
                + "Upgrade: websocket\r\n"
                + "Connection: Upgrade\r\n"
                + "Sec-WebSocket-Key: " + key + "\r\n"
                + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String head = readHead(in);
        if (!head.startsWith("HTTP/1.1 101")) {
            socket.close();
            throw new IOException("The server refused the WebSocket handshake: " + head);
        }
    }

    /** The session id Micronaut gives this session on Netty and on Weft: the {@code Sec-WebSocket-Key}. */
    public String sessionId() {
        return key;
    }

    /** Sends a text message, masked as a client must. */
    public void sendText(String text) throws IOException {
        send(TEXT, text.getBytes(StandardCharsets.UTF_8), true);
    }

    /** Sends a close frame with {@code code}, masked. */
    public void sendClose(int code) throws IOException {
        send(CLOSE, new byte[] {(byte) (code >> 8), (byte) code}, true);
    }

    /** Sends one final frame; {@code masked = false} breaks RFC 6455 §5.1. */
    public void send(int opcode, byte[] payload, boolean masked) throws IOException {
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.write(0x80 | opcode);
        int maskBit = masked ? 0x80 : 0;
        if (payload.length < 126) {
            frame.write(maskBit | payload.length);
        } else {
            frame.write(maskBit | 126);
            frame.write(payload.length >> 8);
            frame.write(payload.length);
        }
        byte[] body = payload.clone();
        if (masked) {
            byte[] mask = new byte[4];
            RANDOM.nextBytes(mask);
            frame.writeBytes(mask);
            for (int i = 0; i < body.length; i++) {
                body[i] ^= mask[i % 4];
            }
        }
        frame.writeBytes(body);
        out.write(frame.toByteArray());
        out.flush();
    }

    /** The next frame, or {@code null} once the server has ended the connection (closed or reset it). */
    public Frame next() throws IOException {
        try {
            int b0 = in.readUnsignedByte();
            int b1 = in.readUnsignedByte();
            long length = b1 & 0x7f;
            if (length == 126) {
                length = in.readUnsignedShort();
            } else if (length == 127) {
                length = in.readLong();
            }
            byte[] payload = new byte[(int) length];
            in.readFully(payload);
            return new Frame(b0 & 0x0f, payload);
        } catch (EOFException | SocketException ended) {
            return null;
        } catch (SocketTimeoutException stalled) {
            throw new IOException("The server sent nothing for 20 seconds", stalled);
        }
    }

    /**
     * Reads until the server's close frame and answers it, as RFC 6455 §5.5.1 asks of a client, then waits for the
     * server to end the connection. Returns the frames read on the way, the close frame last (if one came).
     */
    public java.util.List<Frame> finishClosing() throws IOException {
        java.util.List<Frame> frames = new java.util.ArrayList<>();
        for (Frame frame = next(); frame != null; frame = next()) {
            frames.add(frame);
            if (frame.opcode() == CLOSE) {
                try {
                    send(CLOSE, frame.payload().length >= 2 ? new byte[] {frame.payload()[0], frame.payload()[1]}
                            : new byte[0], true);
                } catch (IOException alreadyGone) {
                    // the server may drop the connection right after its close frame (Netty on a protocol error)
                }
                awaitEnd();
                break;
            }
        }
        return frames;
    }

    /** Waits until the server has ended the connection, skipping what it still sends. */
    public void awaitEnd() throws IOException {
        while (next() != null) {
            // skip
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("The connection ended in the response head: " + head);
            }
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }
}
