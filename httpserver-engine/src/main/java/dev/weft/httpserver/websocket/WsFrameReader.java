package dev.weft.httpserver.websocket;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads client frames (RFC 6455 §5.2) from the session's input: checks each header before any of its payload
 * is read, then hands out the payload unmasked in pieces. Checks what a single header can break: reserved
 * bits and opcodes, the mask, the length encoding, control frame rules and {@code maxFrameSize}; the order
 * of frames is the session's business. Owned by the session's reader thread.
 *
 * <p>This is the session's only read buffer (the connection's own is released after the upgrade). An idle
 * session waits for its next frame in a read into that buffer, so the buffer is kept small ({@link #SMALL})
 * while the connection is quiet and grows to {@link #LARGE} only while bytes keep coming: after a read that
 * filled it; it goes back to the small one at the next frame boundary once a read left room (the socket had
 * nothing more). Payloads at least as large as the buffer are read straight into their destination.
 */
final class WsFrameReader {

    /** Read buffer of a quiet connection: one small message with its header fits. */
    static final int SMALL = 512;
    /** Read buffer while bytes keep coming. */
    static final int LARGE = 8 * 1024;

    private final InputStream in;
    private final long maxFrameSize;
    private final boolean rsv1Allowed;
    private final Runnable onBytes;
    private final byte[] small = new byte[SMALL];
    private byte[] buf = small;
    private int pos;
    private int limit;
    /** Whether the last read into the buffer filled all the room it had (more is probably waiting). */
    private boolean lastReadFull;
    private boolean lenient;

    // The current frame.
    private boolean fin;
    private boolean rsv1;
    private int opcode;
    private long remaining;
    private final byte[] mask = new byte[4];
    private int maskIndex;

    /**
     * @param rsv1Allowed whether an extension that defines RSV1 (permessage-deflate) was negotiated
     * @param onBytes     told after every read that returned bytes (the idle clock)
     */
    WsFrameReader(InputStream in, long maxFrameSize, boolean rsv1Allowed, Runnable onBytes) {
        this.in = in;
        this.maxFrameSize = maxFrameSize;
        this.rsv1Allowed = rsv1Allowed;
        this.onBytes = onBytes;
    }

    boolean fin() {
        return fin;
    }

    boolean rsv1() {
        return rsv1;
    }

    int opcode() {
        return opcode;
    }

    /** Size of the read buffer in use; for tests. */
    int bufferSize() {
        return buf.length;
    }

    /** Payload bytes of the current frame not read yet. */
    long remaining() {
        return remaining;
    }

    /**
     * Reads and checks the next frame header; the payload of the previous frame must have been consumed.
     *
     * @return false at end of stream before a frame started
     * @throws EOFException     if the stream ends inside a header
     * @throws SessionFailure   if the header breaks a framing rule or the size limit
     */
    boolean next() throws IOException, SessionFailure {
        if (remaining != 0) {
            throw new IllegalStateException("payload of the previous frame not consumed");
        }
        if (pos == limit && buf != small && !lastReadFull) {
            // A frame boundary with nothing buffered and nothing seen waiting: the connection may go quiet.
            buf = small;
            pos = 0;
            limit = 0;
        }
        if (!ensure(2, true)) {
            return false;
        }
        int b0 = buf[pos] & 0xff;
        int b1 = buf[pos + 1] & 0xff;
        fin = (b0 & 0x80) != 0;
        rsv1 = (b0 & 0x40) != 0;
        opcode = b0 & 0x0f;
        boolean masked = (b1 & 0x80) != 0;
        int len7 = b1 & 0x7f;
        if (!lenient) {
            checkHeader(b0, masked, len7);
        }
        int headerLength = 2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0) + (masked ? 4 : 0);
        if (!ensure(headerLength, false)) {
            throw new EOFException("stream ended inside a frame header");
        }
        int p = pos + 2;
        long length;
        if (len7 == 126) {
            length = ((buf[p] & 0xff) << 8) | (buf[p + 1] & 0xff);
            p += 2;
            // §5.2: "the minimal number of bytes MUST be used to encode the length"
            if (length < 126 && !lenient) {
                throw SessionFailure.protocol("payload length not minimally encoded");
            }
        } else if (len7 == 127) {
            length = 0;
            for (int i = 0; i < 8; i++) {
                length = (length << 8) | (buf[p + i] & 0xff);
            }
            p += 8;
            if (length < 0) {
                throw SessionFailure.protocol("payload length with the most significant bit set");
            }
            if (length <= 0xffff && !lenient) {
                throw SessionFailure.protocol("payload length not minimally encoded");
            }
        } else {
            length = len7;
        }
        if (length > maxFrameSize && !lenient) {
            throw SessionFailure.tooBig("frame of " + length + " bytes exceeds maxFrameSize " + maxFrameSize);
        }
        if (masked) {
            System.arraycopy(buf, p, mask, 0, 4);
        } else {
            java.util.Arrays.fill(mask, (byte) 0);
        }
        pos += headerLength;
        remaining = length;
        maskIndex = 0;
        return true;
    }

    /** The rules one header can break, checked before anything past its first two bytes is read. */
    private void checkHeader(int b0, boolean masked, int len7) throws SessionFailure {
        // §5.2: "MUST be 0 unless an extension is negotiated that defines meanings for non-zero values."
        if ((b0 & 0x30) != 0 || rsv1 && !rsv1Allowed) {
            throw SessionFailure.protocol("reserved bit set without an extension that defines it");
        }
        if (!Opcode.isKnown(opcode)) {
            throw SessionFailure.protocol("reserved opcode 0x" + Integer.toHexString(opcode));
        }
        // RFC 7692 §6.1: RSV1 only on the first frame of a data message.
        if (rsv1 && (opcode == Opcode.CONTINUATION || Opcode.isControl(opcode))) {
            throw SessionFailure.protocol("RSV1 set on a " + Opcode.name(opcode) + " frame");
        }
        // §5.1: "The server MUST close the connection upon receiving a frame that is not masked."
        if (!masked) {
            throw SessionFailure.protocol("client frame not masked");
        }
        if (Opcode.isControl(opcode)) {
            // §5.5: "All control frames MUST have a payload length of 125 bytes or less and MUST NOT be fragmented."
            if (!fin) {
                throw SessionFailure.protocol("fragmented " + Opcode.name(opcode) + " frame");
            }
            if (len7 > Opcode.MAX_CONTROL_PAYLOAD) {
                throw SessionFailure.protocol(Opcode.name(opcode) + " frame longer than 125 bytes");
            }
        }
    }

    /**
     * From now on frames are only delimited, not checked, so that after failing the session the reader can
     * skip what the peer still sends until its close frame.
     */
    void lenient() {
        lenient = true;
    }

    /**
     * Reads up to {@code len} payload bytes of the current frame, unmasked.
     *
     * @return bytes read, at least one while {@link #remaining()} is positive; 0 when the payload is done
     * @throws EOFException if the stream ends inside the payload
     */
    int read(byte[] dst, int off, int len) throws IOException {
        int want = (int) Math.min(len, remaining);
        if (want == 0) {
            return 0;
        }
        int n;
        if (pos < limit) {
            n = Math.min(want, limit - pos);
            System.arraycopy(buf, pos, dst, off, n);
            pos += n;
        } else if (want >= buf.length) {
            n = in.read(dst, off, want);
            if (n < 0) {
                throw new EOFException("stream ended inside a frame payload");
            }
            lastReadFull = false;
            onBytes.run();
        } else {
            ensure(1, false);
            if (pos == limit) {
                throw new EOFException("stream ended inside a frame payload");
            }
            n = Math.min(want, limit - pos);
            System.arraycopy(buf, pos, dst, off, n);
            pos += n;
        }
        unmask(dst, off, n);
        remaining -= n;
        return n;
    }

    /** Reads the rest of the current payload into {@code dst} (which must have room). */
    void readFully(byte[] dst, int off) throws IOException {
        while (remaining > 0) {
            off += read(dst, off, (int) remaining);
        }
    }

    /** Discards the rest of the current payload. */
    void skip() throws IOException {
        byte[] scratch = remaining > 0 ? new byte[(int) Math.min(remaining, 8192)] : null;
        while (remaining > 0) {
            read(scratch, 0, scratch.length);
        }
    }

    private void unmask(byte[] b, int off, int len) {
        int m = maskIndex;
        for (int i = off, end = off + len; i < end; i++) {
            b[i] ^= mask[m];
            m = (m + 1) & 3;
        }
        maskIndex = m;
    }

    /**
     * Makes {@code n} bytes available from {@code pos}.
     *
     * @param eofAllowed whether end of stream before any byte is a clean end (returns false)
     * @return false at end of stream
     */
    private boolean ensure(int n, boolean eofAllowed) throws IOException {
        if (limit - pos >= n) {
            return true;
        }
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        }
        while (limit < n) {
            if (lastReadFull && buf == small) {
                byte[] large = new byte[LARGE];
                System.arraycopy(small, 0, large, 0, limit);
                buf = large;
            }
            int room = buf.length - limit;
            int r = in.read(buf, limit, room);
            if (r < 0) {
                if (limit == 0 && eofAllowed) {
                    return false;
                }
                if (limit < n && !eofAllowed) {
                    return false;
                }
                throw new EOFException("stream ended inside a frame header");
            }
            if (r > 0) {
                limit += r;
                lastReadFull = r == room;
                onBytes.run();
            }
        }
        return true;
    }
}
