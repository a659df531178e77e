package dev.weft.httpserver.websocket;

import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The permessage-deflate codec of one session (RFC 7692 §7.2): raw DEFLATE, each message ended with a sync
 * flush whose {@code 00 00 ff ff} tail is left off on the wire and put back before inflating. The sending half
 * is used under the session's write lock, the receiving half by the reader thread only. Each half's zlib
 * state (native memory, about 256 KiB for the compressor and 40 KiB for the decompressor) is created when its
 * first message comes, so a session that negotiated compression and stays idle holds none; {@link #close()}
 * releases what was created.
 */
final class PerMessageDeflate implements AutoCloseable {

    private static final byte[] TAIL = {0x00, 0x00, (byte) 0xff, (byte) 0xff};

    private final boolean resetDeflater;
    private final int windowLimit;
    private final boolean resetInflater;
    // Sending half, guarded by the session's write lock.
    private Deflater deflater;
    private byte[] out = new byte[0];
    private boolean closed;
    // Receiving half, reader thread only (close() is called once the reader loop has ended).
    private Inflater inflater;
    private boolean tailGiven;

    PerMessageDeflate(DeflateNegotiation.Agreement agreement) {
        this.windowLimit = agreement.serverMaxWindowBits() < 15 ? 1 << agreement.serverMaxWindowBits() : -1;
        // Below 15 bits, every message starts afresh so its back-references stay inside it (see fitsWindow).
        this.resetDeflater = agreement.serverNoContextTakeover() || windowLimit > 0;
        this.resetInflater = agreement.clientNoContextTakeover();
    }

    /**
     * Whether an outgoing message of {@code length} bytes ({@code -1}: not known, sent in parts) may be
     * compressed within the negotiated {@code server_max_window_bits}: always at 15; below, only a whole
     * message of at most 2^N bytes, compressed from a reset state, whose back-references cannot reach further.
     */
    boolean fitsWindow(long length) {
        return windowLimit < 0 || (length >= 0 && length <= windowLimit);
    }

    /**
     * Compresses one part of an outgoing message; the result is {@code output()[0, returned)}. The last part
     * drops the sync-flush tail (§7.2.1) and, without context takeover, resets the compressor.
     */
    int compress(byte[] data, int off, int len, boolean last) {
        if (deflater == null) {
            if (closed) {
                throw new IllegalStateException("permessage-deflate closed");
            }
            deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        }
        deflater.setInput(data, off, len);
        int total = 0;
        while (true) {
            if (out.length - total < 64) {
                out = Arrays.copyOf(out, Math.max(1024, out.length * 2));
            }
            int space = out.length - total;
            int n = deflater.deflate(out, total, space, Deflater.SYNC_FLUSH);
            total += n;
            if (n < space) {
                break; // a sync flush that did not fill the space is complete
            }
        }
        if (last) {
            if (total >= 4 && out[total - 4] == 0 && out[total - 3] == 0 && out[total - 2] == (byte) 0xff
                    && out[total - 1] == (byte) 0xff) {
                total -= 4;
            }
            if (resetDeflater) {
                deflater.reset();
            }
        }
        return total;
    }

    /** The buffer {@link #compress} wrote into; valid until its next call. */
    byte[] output() {
        return out;
    }

    /** Gives compressed bytes of an incoming message to the inflater; they must stay unchanged until inflated. */
    void input(byte[] b, int off, int len) {
        if (inflater == null) {
            inflater = new Inflater(true);
        }
        inflater.setInput(b, off, len);
    }

    /**
     * All of the message's bytes were given and inflated (the inflater holds one input at a time): puts back
     * the tail (§7.2.2).
     */
    void endOfMessage() {
        tailGiven = true;
        if (inflater == null) {
            inflater = new Inflater(true); // a message of empty frames
        }
        if (!inflater.finished()) {
            inflater.setInput(TAIL);
        }
    }

    /**
     * Inflates into {@code dst}.
     *
     * @return bytes produced; 0 when all input given so far has been used
     * @throws SessionFailure 1007 when the data is not valid DEFLATE
     */
    int inflate(byte[] dst, int off, int len) throws SessionFailure {
        try {
            int n = inflater.inflate(dst, off, len);
            if (n == 0 && inflater.finished() && inflater.getRemaining() > 0 && !tailGiven) {
                // A final block ended the stream, yet the message goes on.
                throw SessionFailure.invalidPayload("compressed data continues after the final block");
            }
            return n;
        } catch (DataFormatException e) {
            throw SessionFailure.invalidPayload("invalid compressed data: " + e.getMessage());
        }
    }

    /** The incoming message is complete; without context takeover (or after a final block) start afresh. */
    void messageDone() {
        tailGiven = false;
        if (inflater != null && (resetInflater || inflater.finished())) {
            inflater.reset();
        }
    }

    @Override
    public void close() {
        closed = true;
        if (deflater != null) {
            deflater.end();
        }
        if (inflater != null) {
            inflater.end();
        }
    }
}
