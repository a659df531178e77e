package dev.weft.httpserver.websocket;

import java.io.IOException;
import java.util.Arrays;

/**
 * Assembles the data frames of incoming messages (RFC 6455 §5.4, §5.6): inflates compressed messages
 * (RFC 7692), validates text as UTF-8 as the bytes arrive, and enforces the size limits before memory is
 * committed: {@code maxMessageSize} for whole messages (checked from the frame header for plain frames, and
 * while inflating for compressed ones, so a small frame cannot inflate past it), parts of at most
 * {@code maxFrameSize} for a {@link PartialMessageListener}, whose messages' totals are held to
 * {@code maxMessageSize} the same way when it asks for {@link PartialMessageListener.Delivery#PARTS_WITHIN_LIMIT}.
 * Whole or in parts is decided per message. Owned by the session's reader thread.
 */
final class IncomingMessage {

    /** Where complete messages, or parts of them, go. */
    interface Sink {
        /**
         * Takes a message or part; {@code b} is reused afterwards, so the sink copies what it keeps.
         *
         * @param last whether this ends the message; text parts always end on a character boundary
         */
        void deliver(int opcode, byte[] b, int off, int len, boolean last) throws Exception;
    }

    private static final int PIECE = 16 * 1024;
    /** Largest array kept from one message to the next: an idle session holds at most this much here. */
    private static final int KEEP = 1024;
    private static final byte[] EMPTY = new byte[0];

    private final long maxMessageSize;
    private final int partSize;
    private final PerMessageDeflate deflate;
    private final Utf8Validator utf8 = new Utf8Validator();
    /** Compressed input on its way to the inflater; allocated for compressed messages only. */
    private byte[] piece;
    // The message in progress.
    private int opcode = -1;
    private boolean compressed;
    /** Whether the message is handed out in parts. */
    private boolean partial;
    /** The largest total the message may reach. */
    private long limit;
    /** Its bytes so far (after decompression). */
    private long total;
    /** Whole mode: the message so far. Partial mode: the part being filled (after an unfinished character). */
    private byte[] data;
    private int size;

    /**
     * @param maxFrameSize the largest part handed out
     * @param deflate      the negotiated codec, or null
     */
    IncomingMessage(long maxMessageSize, int maxFrameSize, PerMessageDeflate deflate) {
        this.maxMessageSize = maxMessageSize;
        this.partSize = Math.max(maxFrameSize, 8);
        this.deflate = deflate;
        this.data = EMPTY;
    }

    /** Whether a fragmented message has started and not ended. */
    boolean inProgress() {
        return opcode != -1;
    }

    /** Starts a message with its first frame's opcode and RSV1 bit, to be handed out as {@code delivery} says. */
    void begin(int opcode, boolean compressed, PartialMessageListener.Delivery delivery) {
        this.opcode = opcode;
        this.compressed = compressed;
        this.partial = delivery != PartialMessageListener.Delivery.WHOLE;
        this.limit = delivery == PartialMessageListener.Delivery.PARTS ? Long.MAX_VALUE : maxMessageSize;
        size = 0;
        total = 0;
        utf8.reset();
    }

    /**
     * Consumes the current frame's payload, handing complete messages or parts to {@code sink}.
     *
     * @throws SessionFailure 1007 for invalid UTF-8 or DEFLATE data, 1009 past a size limit
     * @throws SinkException  if the sink threw
     */
    void frame(WsFrameReader frames, boolean fin, Sink sink) throws IOException, SessionFailure, SinkException {
        if (compressed) {
            long left = frames.remaining();
            if (left > 0 && (piece == null || piece.length < Math.min(PIECE, left))) {
                piece = new byte[(int) Math.min(PIECE, Math.max(left, 256))];
            }
            while (frames.remaining() > 0) {
                int n = frames.read(piece, 0, piece.length);
                deflate.input(piece, 0, n);
                inflate(sink);
            }
            if (fin) {
                deflate.endOfMessage();
                inflate(sink);
                deflate.messageDone();
            }
        } else if (partial) {
            // Decided from the header, before any of the payload is read.
            checkTotal(frames.remaining(), "message exceeds maxMessageSize ");
            while (frames.remaining() > 0) {
                if (size == data.length) {
                    // full, and more is coming: a full part that ends a message goes out as its last part
                    emitPart(sink);
                }
                room();
                int n = frames.read(data, size, data.length - size);
                accept(data, size, n);
                size += n;
            }
        } else {
            long length = frames.remaining();
            // Decided from the header, before any of the payload is read.
            checkTotal(length, "message exceeds maxMessageSize ");
            if (data.length < size + length) {
                data = Arrays.copyOf(data, (int) Math.max(size + length, Math.min(maxMessageSize, 2L * data.length)));
            }
            while (frames.remaining() > 0) {
                int n = frames.read(data, size, Math.min(PIECE, data.length - size));
                accept(data, size, n);
                size += n;
            }
        }
        if (fin) {
            // §8.1: a text message must end on a character boundary.
            if (opcode == Opcode.TEXT && !utf8.atBoundary()) {
                throw SessionFailure.invalidPayload("text message ends inside a UTF-8 sequence");
            }
            int op = opcode;
            int n = size;
            opcode = -1;
            size = 0;
            byte[] b = data;
            if (data.length > KEEP) {
                data = EMPTY;
            }
            if (piece != null && piece.length > KEEP) {
                piece = null;
            }
            call(sink, op, b, n, true);
        } else if (partial && size > utf8.unfinished()) {
            emitPart(sink);
        }
    }

    /** Inflates all input given so far into the message (or parts), minding the limits as it grows. */
    private void inflate(Sink sink) throws SessionFailure, SinkException {
        while (true) {
            room();
            int n = deflate.inflate(data, size, data.length - size);
            if (n == 0) {
                return;
            }
            checkTotal(n, "inflated message exceeds maxMessageSize ");
            accept(data, size, n);
            size += n;
            if (partial && size == data.length) {
                emitPart(sink);
            }
        }
    }

    /** Makes room to read into: grows the whole message up to one byte past the limit, parts up to their size. */
    private void room() {
        if (size < data.length) {
            return;
        }
        long cap = partial ? partSize : maxMessageSize + 1;
        data = Arrays.copyOf(data, (int) Math.min(cap, Math.max(1024, 2L * data.length)));
    }

    /** Counts {@code n} more bytes of the message; past its limit, fails with 1009. */
    private void checkTotal(long n, String what) throws SessionFailure {
        total += n;
        if (total > limit) {
            throw SessionFailure.tooBig(what + maxMessageSize);
        }
    }

    private void accept(byte[] b, int off, int n) throws SessionFailure {
        if (opcode == Opcode.TEXT && !utf8.feed(b, off, n)) {
            throw SessionFailure.invalidPayload("text message is not valid UTF-8");
        }
    }

    /** Hands out the part filled so far, up to its last complete character, and keeps the rest. */
    private void emitPart(Sink sink) throws SinkException {
        int keep = opcode == Opcode.TEXT ? utf8.unfinished() : 0;
        int n = size - keep;
        if (n > 0) {
            call(sink, opcode, data, n, false);
            System.arraycopy(data, n, data, 0, keep);
            size = keep;
        }
    }

    private static void call(Sink sink, int opcode, byte[] b, int n, boolean last) throws SinkException {
        try {
            sink.deliver(opcode, b, 0, n, last);
        } catch (Exception e) {
            throw new SinkException(e);
        }
    }

    /** The sink threw; the cause is the listener's exception. */
    static final class SinkException extends Exception {
        private static final long serialVersionUID = 1L;

        SinkException(Exception cause) {
            super(cause);
        }
    }
}
