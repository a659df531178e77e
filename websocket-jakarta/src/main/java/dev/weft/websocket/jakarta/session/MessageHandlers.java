package dev.weft.websocket.jakarta.session;

import dev.weft.websocket.jakarta.coding.Coders;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.PongMessage;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The message handlers of one session, at most one per kind of message (text, binary, pong), with the type each
 * receives.
 */
final class MessageHandlers {

    /** The native kinds of WebSocket message. */
    enum Kind { TEXT, BINARY, PONG }

    /**
     * A registered handler.
     *
     * @param handler the handler
     * @param type    the type it receives
     * @param partial whether it takes parts ({@link MessageHandler.Partial})
     */
    record Registered(MessageHandler handler, Class<?> type, boolean partial) {
    }

    /** Indexed by {@link Kind#ordinal()}: read for every message, so one array rather than a map. */
    private final AtomicReferenceArray<Registered> byKind = new AtomicReferenceArray<>(Kind.values().length);
    private final Coders coders;

    MessageHandlers(Coders coders) {
        this.coders = coders;
    }

    /** Registers a handler whose type is read from its generic interface. */
    void add(MessageHandler handler) {
        boolean partial = handler instanceof MessageHandler.Partial<?>;
        Class<?> type = typeOf(handler.getClass(), partial ? MessageHandler.Partial.class : MessageHandler.Whole.class);
        if (type == null) {
            throw new IllegalStateException("cannot read the message type of " + handler.getClass().getName()
                    + " (a lambda?); use addMessageHandler(Class, handler)");
        }
        add(handler, type, partial);
    }

    /** Registers a handler of messages of {@code type}. */
    void add(MessageHandler handler, Class<?> type, boolean partial) {
        Kind kind = kindOf(type, partial);
        if (!byKind.compareAndSet(kind.ordinal(), null, new Registered(handler, type, partial))) {
            throw new IllegalStateException("the session has a " + kind + " message handler already");
        }
    }

    void remove(MessageHandler handler) {
        for (int i = 0; i < byKind.length(); i++) {
            Registered r = byKind.get(i);
            if (r != null && r.handler() == handler) {
                byKind.compareAndSet(i, r, null);
            }
        }
    }

    Set<MessageHandler> all() {
        Set<MessageHandler> set = new HashSet<>();
        for (int i = 0; i < byKind.length(); i++) {
            Registered r = byKind.get(i);
            if (r != null) {
                set.add(r.handler());
            }
        }
        return Set.copyOf(set);
    }

    Registered get(Kind kind) {
        return byKind.get(kind.ordinal());
    }

    private Kind kindOf(Class<?> type, boolean partial) {
        if (type == PongMessage.class && !partial) {
            return Kind.PONG;
        }
        if (partial) {
            if (type == String.class) {
                return Kind.TEXT;
            }
            if (type == ByteBuffer.class || type == byte[].class) {
                return Kind.BINARY;
            }
            throw new IllegalStateException("partial messages come as String, ByteBuffer or byte[], not " + type);
        }
        if (coders.decodesBinary(type)) {
            return Kind.BINARY;
        }
        if (coders.decodesText(type)) {
            return Kind.TEXT;
        }
        throw new IllegalStateException("no decoder for messages of " + type.getName());
    }

    private static Class<?> typeOf(Class<?> c, Class<?> iface) {
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Type t : k.getGenericInterfaces()) {
                if (t instanceof ParameterizedType p && p.getRawType() == iface) {
                    Type arg = p.getActualTypeArguments()[0];
                    if (arg instanceof Class<?> cls) {
                        return cls;
                    }
                    if (arg instanceof ParameterizedType pa && pa.getRawType() instanceof Class<?> cls) {
                        return cls;
                    }
                }
            }
        }
        return null;
    }
}
