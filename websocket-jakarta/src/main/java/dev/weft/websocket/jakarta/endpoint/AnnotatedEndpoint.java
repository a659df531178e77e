package dev.weft.websocket.jakarta.endpoint;

import dev.weft.websocket.jakarta.session.EndpointInvocationException;
import jakarta.websocket.CloseReason;
import jakarta.websocket.DecodeException;
import jakarta.websocket.EncodeException;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.Session;

import java.io.IOException;
import java.lang.System.Logger.Level;

/**
 * An instance of an annotated endpoint class as an {@link Endpoint}: on open, each {@code @OnMessage} method
 * becomes a message handler of the session, then {@code @OnOpen} is called; a non-void return value of a message
 * method is sent back. Errors without an {@code @OnError} method are logged.
 */
public final class AnnotatedEndpoint extends Endpoint {

    private static final System.Logger LOG = System.getLogger(AnnotatedEndpoint.class.getName());

    private final Object target;
    private final EndpointMethods methods;

    /** The endpoint {@code target}, whose class {@code methods} describes. */
    public AnnotatedEndpoint(Object target, EndpointMethods methods) {
        this.target = target;
        this.methods = methods;
    }

    @Override
    public void onOpen(Session session, EndpointConfig config) {
        for (MessageMethod m : methods.messages().values()) {
            register(session, m);
        }
        if (methods.onOpen() != null) {
            call(methods.onOpen(), CallArguments.of(session).withConfig(config));
        }
    }

    @Override
    public void onClose(Session session, CloseReason closeReason) {
        if (methods.onClose() != null) {
            call(methods.onClose(), CallArguments.of(session).withReason(closeReason));
        }
    }

    @Override
    public void onError(Session session, Throwable thr) {
        if (methods.onError() == null) {
            LOG.log(Level.WARNING, "error in WebSocket endpoint " + target.getClass().getName()
                    + " (it has no @OnError method)", thr);
            return;
        }
        try {
            call(methods.onError(), CallArguments.of(session).withError(thr));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "@OnError of " + target.getClass().getName() + " threw", e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void register(Session session, MessageMethod m) {
        Class type = m.messageType();
        if (m.maxMessageSize() > 0) {
            if (m.kind() == MessageMethod.Kind.TEXT) {
                session.setMaxTextMessageBufferSize((int) m.maxMessageSize());
            } else if (m.kind() == MessageMethod.Kind.BINARY) {
                session.setMaxBinaryMessageBufferSize((int) m.maxMessageSize());
            }
        }
        if (m.partial()) {
            session.addMessageHandler(type, (MessageHandler.Partial) (part, last) ->
                    reply(session, call(m.method(), CallArguments.of(session).withMessage(part, last))));
        } else {
            session.addMessageHandler(type, (MessageHandler.Whole) message ->
                    reply(session, call(m.method(), CallArguments.of(session).withMessage(message, true))));
        }
    }

    private Object call(AnnotatedMethod m, CallArguments args) {
        try {
            return m.invoke(target, args);
        } catch (DecodeException e) {
            throw new EndpointInvocationException(e);
        }
    }

    private static void reply(Session session, Object result) {
        if (result == null) {
            return;
        }
        try {
            session.getBasicRemote().sendObject(result);
        } catch (IOException | EncodeException e) {
            throw new EndpointInvocationException(e);
        }
    }
}
