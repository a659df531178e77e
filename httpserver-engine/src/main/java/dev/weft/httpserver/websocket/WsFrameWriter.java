package dev.weft.httpserver.websocket;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes server frames (RFC 6455 §5.2): unmasked, as §5.1 requires of a server, with the shortest length
 * encoding. Not thread-safe: the session calls it with its write lock held.
 */
final class WsFrameWriter {

    private final OutputStream out;
    private final byte[] header = new byte[10];

    WsFrameWriter(OutputStream out) {
        this.out = out;
    }

    /** Writes one frame; {@link #flush()} sends it. */
    void frame(boolean fin, boolean rsv1, int opcode, byte[] payload, int off, int len) throws IOException {
        int n = encodeHeader(header, fin, rsv1, opcode, len);
        out.write(header, 0, n);
        if (len > 0) {
            out.write(payload, off, len);
        }
    }

    void flush() throws IOException {
        out.flush();
    }

    /**
     * Encodes a frame header without a mask into {@code h} (10 bytes of room).
     *
     * @return the header's length
     */
    static int encodeHeader(byte[] h, boolean fin, boolean rsv1, int opcode, long len) {
        h[0] = (byte) ((fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode);
        if (len < 126) {
            h[1] = (byte) len;
            return 2;
        }
        if (len <= 0xffff) {
            h[1] = 126;
            h[2] = (byte) (len >>> 8);
            h[3] = (byte) len;
            return 4;
        }
        h[1] = 127;
        for (int i = 0; i < 8; i++) {
            h[2 + i] = (byte) (len >>> (56 - 8 * i));
        }
        return 10;
    }
}
