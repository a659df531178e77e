package dev.weft.websocket.jakarta.session;

import dev.weft.httpserver.websocket.CloseStatus;
import dev.weft.httpserver.websocket.PartialMessageListener;
import dev.weft.httpserver.websocket.WebSocketSession;
import jakarta.websocket.CloseReason;
import jakarta.websocket.DecodeException;
import jakarta.websocket.Endpoint;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.PongMessage;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;

/**
 * The engine listener of one Jakarta session: opens the {@link WeftSession}, hands each message to the session's
 * handler of its kind, and reports errors and the close to the {@link Endpoint}. A message for a
 * {@link MessageHandler.Partial} (or an {@code @OnMessage} method with a {@code boolean last}) is handed on in parts
 * as its frames arrive (a compressed frame may make several parts); a message for a whole handler of
 * {@code Reader} or {@code InputStream} is streamed to it, on a thread of its own, as its frames arrive
 * ({@link StreamedMessage}); any other message whole, decoded.
 *
 * <p>Close codes: a whole message larger than the session's limit closes with {@code 1009}, as does a partial one
 * whose total passes the engine's {@code maxMessageSize}; a message of a kind the session has no handler for with
 * {@code 1003}; a handler or {@code onOpen} that throws with {@code 1011} after {@code onError}. A
 * {@link DecodeException} only goes to {@code onError}: the session stays open.
 */
public final class SessionBridge implements PartialMessageListener {

    private static final System.Logger LOG = System.getLogger(SessionBridge.class.getName());

    private final SessionContext context;
    private WeftSession session;
    /** The message being streamed to a {@code Reader} or {@code InputStream} handler, or null. */
    private StreamedMessage streamed;

    /** A bridge for the session the handshake described. */
    public SessionBridge(SessionContext context) {
        this.context = context;
    }

    @Override
    public void onOpen(WebSocketSession ws) throws Exception {
        session = new WeftSession(ws, context);
        context.openSessions().add(session);
        try {
            context.endpoint().onOpen(session, context.config());
        } catch (RuntimeException | Error e) {
            fail(e);
        }
    }

    @Override
    public void onText(WebSocketSession ws, String message) throws Exception {
        session.touch();
        int max = session.getMaxTextMessageBufferSize();
        if (max > 0 && message.length() > max / 3 && utf8Length(message) > max) {
            tooBig("text message larger than " + max + " bytes");
            return;
        }
        deliver(MessageHandlers.Kind.TEXT, message);
    }

    @Override
    public void onBinary(WebSocketSession ws, ByteBuffer message) throws Exception {
        session.touch();
        int max = session.getMaxBinaryMessageBufferSize();
        if (max > 0 && message.remaining() > max) {
            tooBig("binary message larger than " + max + " bytes");
            return;
        }
        deliver(MessageHandlers.Kind.BINARY, message);
    }

    /**
     * In parts (held to the engine's {@code maxMessageSize} in total) for a partial handler and for a
     * {@code Reader} or {@code InputStream} handler, whose reading starts now; else whole.
     */
    @Override
    public Delivery delivery(boolean text) {
        MessageHandlers.Registered r = session.handlers().get(text ? MessageHandlers.Kind.TEXT
                : MessageHandlers.Kind.BINARY);
        if (r == null) {
            return Delivery.WHOLE;
        }
        if (!r.partial() && r.type() == (text ? Reader.class : InputStream.class)) {
            streamed = new StreamedMessage(text, stream -> invokeWhole(r, stream));
            return Delivery.PARTS_WITHIN_LIMIT;
        }
        return r.partial() ? Delivery.PARTS_WITHIN_LIMIT : Delivery.WHOLE;
    }

    @Override
    public void onTextPart(WebSocketSession ws, String part, boolean last) throws IOException {
        onPart(MessageHandlers.Kind.TEXT, part, last);
    }

    @Override
    public void onBinaryPart(WebSocketSession ws, ByteBuffer part, boolean last) throws IOException {
        onPart(MessageHandlers.Kind.BINARY, part, last);
    }

    private void onPart(MessageHandlers.Kind kind, Object part, boolean last) throws IOException {
        session.touch();
        if (streamed != null) {
            streamPart(part, last);
        } else {
            deliverPart(kind, part, last);
        }
    }

    /** Hands a part to the streaming handler; after the last, waits for it and fails the session if it threw. */
    private void streamPart(Object part, boolean last) throws IOException {
        StreamedMessage s = streamed;
        s.add(part, last);
        if (last) {
            streamed = null;
            Throwable failure = s.awaitHandler();
            if (failure != null) {
                fail(failure);
            }
        }
    }

    @Override
    public void onPing(WebSocketSession ws, ByteBuffer payload) {
        session.touch();
    }

    @Override
    public void onPong(WebSocketSession ws, ByteBuffer payload) throws Exception {
        session.touch();
        MessageHandlers.Registered r = session.handlers().get(MessageHandlers.Kind.PONG);
        if (r != null) {
            PongMessage pong = payload::asReadOnlyBuffer;
            invoke(r, pong, true);
        }
    }

    @Override
    public void onClose(WebSocketSession ws, CloseStatus status) {
        if (streamed != null) {
            streamed.abort();
            streamed = null;
        }
        if (session == null) {
            return;
        }
        context.openSessions().remove(session);
        try {
            context.endpoint().onClose(session, new CloseReason(CloseReason.CloseCodes.getCloseCode(status.code()),
                    status.reason()));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "onClose of " + session + " threw", e);
        } finally {
            session.ended();
        }
    }

    @Override
    public void onError(WebSocketSession ws, Throwable error) {
        if (session != null) {
            context.endpoint().onError(session, error);
        }
    }

    private void deliver(MessageHandlers.Kind kind, Object message) throws IOException {
        MessageHandlers.Registered r = session.handlers().get(kind);
        if (r == null) {
            noHandler(kind);
            return;
        }
        Object value;
        try {
            value = r.partial() ? asPart(message, r.type())
                    : kind == MessageHandlers.Kind.TEXT ? session.coders().decodeText((String) message, r.type())
                    : session.coders().decodeBinary((ByteBuffer) message, r.type());
        } catch (DecodeException e) {
            context.endpoint().onError(session, e);
            return;
        }
        invoke(r, value, true);
    }

    /** A part of a message for a partial handler, unless the handler went away while the message was arriving. */
    private void deliverPart(MessageHandlers.Kind kind, Object part, boolean last) throws IOException {
        if (!session.isOpen()) {
            return;
        }
        MessageHandlers.Registered r = session.handlers().get(kind);
        if (r == null || !r.partial()) {
            noHandler(kind);
            return;
        }
        invoke(r, asPart(part, r.type()), last);
    }

    private void noHandler(MessageHandlers.Kind kind) throws IOException {
        session.close(new CloseReason(CloseReason.CloseCodes.CANNOT_ACCEPT,
                "no handler for " + kind.name().toLowerCase(java.util.Locale.ROOT) + " messages"));
    }

    private static Object asPart(Object message, Class<?> type) {
        if (type == byte[].class) {
            ByteBuffer b = (ByteBuffer) message;
            byte[] bytes = new byte[b.remaining()];
            b.get(bytes);
            return bytes;
        }
        return message;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void invokeWhole(MessageHandlers.Registered r, Object message) {
        ((MessageHandler.Whole) r.handler()).onMessage(message);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void invoke(MessageHandlers.Registered r, Object value, boolean last) throws IOException {
        try {
            if (r.partial()) {
                ((MessageHandler.Partial) r.handler()).onMessage(value, last);
            } else {
                ((MessageHandler.Whole) r.handler()).onMessage(value);
            }
        } catch (RuntimeException | Error e) {
            fail(e);
        }
    }

    /** A handler threw: {@code onError}, then close with 1011. */
    private void fail(Throwable e) throws IOException {
        Throwable cause = e instanceof EndpointInvocationException && e.getCause() != null ? e.getCause() : e;
        context.endpoint().onError(session, cause);
        session.close(new CloseReason(CloseReason.CloseCodes.UNEXPECTED_CONDITION,
                CloseStatus.truncateReason(String.valueOf(cause.getMessage()))));
    }

    private void tooBig(String reason) throws IOException {
        LOG.log(Level.DEBUG, () -> session + ": " + reason);
        session.close(new CloseReason(CloseReason.CloseCodes.TOO_BIG, reason));
    }

    private static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            n += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
        }
        return n;
    }
}
