package dev.weft.httpserver.websocket;

import dev.weft.httpserver.core.CarrierTurn;
import dev.weft.httpserver.stats.ServerStats;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The session's reader loop, on the exchange's thread: reads frames, answers pings, enforces the order of
 * frames (RFC 6455 §5.4), hands messages to the listener one at a time, and runs the receiving half of the
 * close handshake (§5.5.1, §7). When the peer breaks a rule it sends the matching close code, then skips
 * what still arrives until the peer's close frame (or the close timeout), so the peer can read our close
 * before the connection ends.
 */
final class MessageReader {

    private static final System.Logger LOG = System.getLogger(MessageReader.class.getName());

    private final WsSession session;
    private final WsFrameReader frames;
    private final IncomingMessage message;
    private final WebSocketListener listener;
    private final PartialMessageListener partial;
    private final ServerStats stats;
    private final long timeSliceNanos;
    private final byte[] control = new byte[Opcode.MAX_CONTROL_PAYLOAD];
    /** Whether the message in progress goes to the listener in parts. */
    private boolean parts;

    /**
     * @param timeSliceNanos how long the session's thread reads and delivers before it lets other threads waiting
     *                       for a carrier go first ({@code threads.timeSlice})
     */
    MessageReader(WsSession session, WsFrameReader frames, IncomingMessage message, WebSocketListener listener,
                  ServerStats stats, long timeSliceNanos) {
        this.timeSliceNanos = timeSliceNanos;
        this.session = session;
        this.frames = frames;
        this.message = message;
        this.listener = listener;
        this.partial = listener instanceof PartialMessageListener p ? p : null;
        this.stats = stats;
    }

    /** Runs the session until it ends; returns the status for {@code onClose}. */
    CloseStatus run() {
        try {
            try {
                listener.onOpen(session);
            } catch (Exception e) {
                return listenerFailed(e);
            }
            // Virtual threads are never preempted: a session whose client sends without pause lets the others
            // run between frames once it has had its time slice. A frame it had to wait for starts a new turn
            // (without that, every frame after the first slice of the session would give way).
            CarrierTurn turn = new CarrierTurn(timeSliceNanos);
            while (true) {
                turn.giveWayIfOver();
                long readStarted = System.nanoTime();
                if (!frames.next()) {
                    return new CloseStatus(CloseStatus.ABNORMAL, "connection closed without a close frame");
                }
                turn.blockingCallReturned(readStarted);
                int opcode = frames.opcode();
                if (Opcode.isControl(opcode)) {
                    CloseStatus closed = control(opcode);
                    if (closed != null) {
                        return closed;
                    }
                    continue;
                }
                if (opcode == Opcode.CONTINUATION) {
                    // §5.4: a continuation frame belongs to a message that has started
                    if (!message.inProgress()) {
                        throw SessionFailure.protocol("continuation frame without a message to continue");
                    }
                } else {
                    // §5.4: "fragments of one message MUST NOT be interleaved between fragments of another"
                    if (message.inProgress()) {
                        throw SessionFailure.protocol("new data frame while a fragmented message is unfinished");
                    }
                    PartialMessageListener.Delivery delivery;
                    try {
                        delivery = partial == null ? PartialMessageListener.Delivery.WHOLE
                                : partial.delivery(opcode == Opcode.TEXT);
                    } catch (RuntimeException e) {
                        return listenerFailed(e);
                    }
                    parts = delivery != PartialMessageListener.Delivery.WHOLE;
                    message.begin(opcode, frames.rsv1(), delivery);
                }
                try {
                    message.frame(frames, frames.fin(), this::deliver);
                } catch (IncomingMessage.SinkException e) {
                    return listenerFailed(e.getCause());
                }
            }
        } catch (SessionFailure f) {
            return fail(f);
        } catch (IOException e) {
            if (!session.aborted()) {
                LOG.log(Level.DEBUG, () -> "WebSocket connection from " + session.remoteAddress() + " failed: " + e);
                onError(e);
            }
            return new CloseStatus(CloseStatus.ABNORMAL, "");
        }
    }

    /** Handles a control frame; returns the final status when it was a close frame. */
    private CloseStatus control(int opcode) throws IOException, SessionFailure {
        int len = (int) frames.remaining();
        frames.readFully(control, 0);
        switch (opcode) {
            case Opcode.PING -> {
                // §5.5.2: "Upon receipt of a Ping frame, an endpoint MUST send a Pong frame in response"
                session.pong(control, len);
                try {
                    listener.onPing(session, ByteBuffer.wrap(Arrays.copyOf(control, len)));
                } catch (Exception e) {
                    return listenerFailed(e);
                }
                return null;
            }
            case Opcode.PONG -> {
                try {
                    listener.onPong(session, ByteBuffer.wrap(Arrays.copyOf(control, len)));
                } catch (Exception e) {
                    return listenerFailed(e);
                }
                return null;
            }
            default -> {
                return closeFrame(len);
            }
        }
    }

    /** §5.5.1 and §7.4: checks the peer's close frame and echoes it if we have not sent ours. */
    private CloseStatus closeFrame(int len) throws IOException, SessionFailure {
        session.closeReceived(true);
        int code = CloseStatus.NO_STATUS;
        String reason = "";
        if (len == 1) {
            throw SessionFailure.protocol("close frame with a 1-byte payload");
        }
        if (len >= 2) {
            code = ((control[0] & 0xff) << 8) | (control[1] & 0xff);
            // §7.4.1/§7.4.2: 1005, 1006, 1015, unassigned 1xxx and codes below 1000 never appear on the wire
            if (!CloseStatus.isSendable(code)) {
                throw SessionFailure.protocol("close code " + code + " is not allowed in a close frame");
            }
            // §5.5.1: the reason is UTF-8
            if (!Utf8Validator.isValid(control, 2, len - 2)) {
                throw SessionFailure.invalidPayload("close reason is not valid UTF-8");
            }
            reason = new String(control, 2, len - 2, StandardCharsets.UTF_8);
        }
        if (!session.closeSent()) {
            session.echoClose(code);
        }
        return new CloseStatus(code, reason);
    }

    private void deliver(int opcode, byte[] b, int off, int len, boolean last) throws Exception {
        if (parts) {
            if (opcode == Opcode.TEXT) {
                partial.onTextPart(session, new String(b, off, len, StandardCharsets.UTF_8), last);
            } else {
                partial.onBinaryPart(session, ByteBuffer.wrap(Arrays.copyOfRange(b, off, off + len)), last);
            }
        } else if (opcode == Opcode.TEXT) {
            listener.onText(session, new String(b, off, len, StandardCharsets.UTF_8));
        } else {
            listener.onBinary(session, ByteBuffer.wrap(Arrays.copyOfRange(b, off, off + len)));
        }
        if (last) {
            stats.webSocketMessageReceived();
        }
    }

    /** §7.1.7: fails the session with the code of the broken rule. */
    private CloseStatus fail(SessionFailure f) {
        stats.webSocketProtocolClose();
        LOG.log(Level.DEBUG, () -> "WebSocket from " + session.remoteAddress() + " failed with " + f.code() + ": "
                + f.getMessage());
        session.sendCloseQuietly(f.code(), f.getMessage());
        drain();
        return new CloseStatus(f.code(), f.getMessage());
    }

    /** A listener callback threw: {@code onError}, then close with 1011. */
    private CloseStatus listenerFailed(Throwable t) {
        LOG.log(Level.WARNING, "WebSocket listener for " + session.requestUri() + " threw", t);
        onError(t);
        session.sendCloseQuietly(CloseStatus.INTERNAL_ERROR, "listener failed");
        drain();
        return new CloseStatus(CloseStatus.INTERNAL_ERROR, "listener failed");
    }

    private void onError(Throwable t) {
        try {
            listener.onError(session, t);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "WebSocket listener onError threw", e);
        }
    }

    /**
     * Our close frame is out: skip whatever the peer still sends, without checking it, until its close frame,
     * the end of the stream, or the close timeout ({@link SessionTimers}) ends the connection.
     */
    private void drain() {
        if (session.closeReceived() || session.aborted()) {
            return;
        }
        frames.lenient();
        try {
            frames.skip();
            while (frames.next()) {
                if (frames.opcode() == Opcode.CLOSE) {
                    session.closeReceived(true);
                    return;
                }
                frames.skip();
            }
        } catch (IOException | SessionFailure e) {
            LOG.log(Level.DEBUG, () -> "WebSocket drain after close ended: " + e);
        }
    }
}
