package dev.weft.httpserver.websocket;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes server frames (RFC 6455 §5.2): unmasked, as §5.1 requires of a server, with the shortest length
 * encoding. Keeps no buffer between frames (an idle session holds none): a frame up to {@link #COALESCE}
 * bytes is written as one array, header and payload together, so that it leaves in one socket write even
 * when the stream beneath is unbuffered; a larger one as its header, then its payload. Not thread-safe: the
 * session calls it with its write lock held.
 */
final class WsFrameWriter {

    /** Bytes a payload array may keep free in front of the payload for {@link #frameInPlace}. */
    static final int HEADER_ROOM = 10;
    /** Largest payload copied behind its header; larger ones are written in two writes. */
    static final int COALESCE = 16 * 1024;

    private final OutputStream out;
    private final byte[] header = new byte[HEADER_ROOM];

    WsFrameWriter(OutputStream out) {
        this.out = out;
    }

    /** Writes one frame; {@link #flush()} sends it. */
    void frame(boolean fin, boolean rsv1, int opcode, byte[] payload, int off, int len) throws IOException {
        if (len <= COALESCE) {
            byte[] f = new byte[HEADER_ROOM + len];
            System.arraycopy(payload, off, f, HEADER_ROOM, len);
            frameInPlace(fin, rsv1, opcode, f, HEADER_ROOM, len);
            return;
        }
        int n = encodeHeader(header, fin, rsv1, opcode, len);
        out.write(header, 0, n);
        out.write(payload, off, len);
    }

    /**
     * Writes one frame whose payload array has {@link #HEADER_ROOM} bytes free before {@code off}: the
     * header goes there, and the frame is written in one write without a copy.
     */
    void frameInPlace(boolean fin, boolean rsv1, int opcode, byte[] payload, int off, int len) throws IOException {
        int n = encodeHeader(header, fin, rsv1, opcode, len);
        System.arraycopy(header, 0, payload, off - n, n);
        out.write(payload, off - n, n + len);
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
