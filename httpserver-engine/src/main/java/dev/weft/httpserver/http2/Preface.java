package dev.weft.httpserver.http2;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** The client connection preface (RFC 9113 §3.4): {@code "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"}, 24 octets. */
public final class Preface {

    private static final byte[] CLIENT = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    public static final int LENGTH = CLIENT.length;

    private Preface() {
    }

    /** A fresh copy of the 24 preface octets. */
    public static byte[] bytes() {
        return CLIENT.clone();
    }

    /** True if {@code len} bytes at {@code off} are the complete preface. */
    public static boolean matches(byte[] b, int off, int len) {
        return len == LENGTH && isPrefix(b, off, len);
    }

    /** True if {@code len} bytes at {@code off} could still begin the preface (for incremental checks). */
    public static boolean isPrefix(byte[] b, int off, int len) {
        if (len > LENGTH) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (b[off + i] != CLIENT[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Reads exactly 24 octets and checks them; stops at the first mismatching octet.
     *
     * @throws Http2ConnectionException PROTOCOL_ERROR on an invalid preface (§3.4)
     * @throws EOFException             if the stream ends first
     */
    public static void readAndVerify(InputStream in) throws IOException {
        for (int i = 0; i < LENGTH; i++) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("stream ended inside the connection preface");
            }
            if ((byte) b != CLIENT[i]) {
                throw new Http2ConnectionException(ErrorCode.PROTOCOL_ERROR, "invalid connection preface");
            }
        }
    }
}
