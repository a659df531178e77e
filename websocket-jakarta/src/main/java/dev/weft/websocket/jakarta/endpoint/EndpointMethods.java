package dev.weft.websocket.jakarta.endpoint;

import dev.weft.websocket.jakarta.coding.CoderTypes;
import dev.weft.websocket.jakarta.coding.PrimitiveText;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Decoder;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.PongMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.PathParam;

import java.io.InputStream;
import java.io.Reader;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The annotated methods of a {@code @ServerEndpoint} class, checked at deployment (Jakarta WebSocket §4.3–4.7):
 * at most one each of {@code @OnOpen}, {@code @OnClose}, {@code @OnError}, and one {@code @OnMessage} per message
 * kind, each with parameters of the allowed forms; anything else is a {@link DeploymentException}.
 *
 * @param onOpen   the @OnOpen method, or null
 * @param onClose  the @OnClose method, or null
 * @param onError  the @OnError method, or null
 * @param messages the @OnMessage methods by kind
 */
public record EndpointMethods(AnnotatedMethod onOpen, AnnotatedMethod onClose, AnnotatedMethod onError,
                              Map<MessageMethod.Kind, MessageMethod> messages) {

    /** Reads and checks the methods of {@code type}, whose messages the {@code decoders} may decode. */
    public static EndpointMethods of(Class<?> type, List<Class<? extends Decoder>> decoders)
            throws DeploymentException {
        AnnotatedMethod open = null;
        AnnotatedMethod close = null;
        AnnotatedMethod error = null;
        Map<MessageMethod.Kind, MessageMethod> messages = new EnumMap<>(MessageMethod.Kind.class);
        for (Method m : type.getMethods()) {
            if (m.isBridge() || Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            if (m.isAnnotationPresent(OnOpen.class)) {
                open = single(open, lifecycle(m, EndpointConfig.class, false), OnOpen.class, type);
            }
            if (m.isAnnotationPresent(OnClose.class)) {
                close = single(close, lifecycle(m, CloseReason.class, false), OnClose.class, type);
            }
            if (m.isAnnotationPresent(OnError.class)) {
                error = single(error, lifecycle(m, Throwable.class, true), OnError.class, type);
            }
            if (m.isAnnotationPresent(OnMessage.class)) {
                MessageMethod mm = message(m, decoders);
                if (messages.putIfAbsent(mm.kind(), mm) != null) {
                    throw new DeploymentException(type.getName() + " has more than one @OnMessage method for "
                            + mm.kind() + " messages");
                }
            }
        }
        return new EndpointMethods(open, close, error, Map.copyOf(messages));
    }

    private static AnnotatedMethod single(AnnotatedMethod existing, AnnotatedMethod found,
                                          Class<? extends Annotation> a, Class<?> type) throws DeploymentException {
        if (existing != null) {
            throw new DeploymentException(type.getName() + " has more than one @" + a.getSimpleName() + " method");
        }
        return found;
    }

    /** An @OnOpen/@OnClose/@OnError method: Session, the one extra type, @PathParam. */
    private static AnnotatedMethod lifecycle(Method m, Class<?> extra, boolean extraRequired)
            throws DeploymentException {
        List<ParameterKind> kinds = new ArrayList<>();
        boolean sawExtra = false;
        for (Parameter p : m.getParameters()) {
            ParameterKind k = common(p, m);
            if (k == null && p.getType() == extra && !sawExtra) {
                sawExtra = true;
                k = extra == EndpointConfig.class ? new ParameterKind.ConfigParameter()
                        : extra == CloseReason.class ? new ParameterKind.ReasonParameter()
                        : new ParameterKind.ErrorParameter();
            }
            if (k == null) {
                throw new DeploymentException("parameter " + p + " of " + m + " is not allowed");
            }
            kinds.add(k);
        }
        if (extraRequired && !sawExtra) {
            throw new DeploymentException(m + " needs a Throwable parameter");
        }
        return new AnnotatedMethod(m, List.copyOf(kinds));
    }

    /** Session and @PathParam parameters, allowed on every method; null for another. */
    private static ParameterKind common(Parameter p, Method m) throws DeploymentException {
        if (p.getType() == Session.class) {
            return new ParameterKind.SessionParameter();
        }
        PathParam pp = p.getAnnotation(PathParam.class);
        if (pp != null) {
            if (!PrimitiveText.isSupported(p.getType())) {
                throw new DeploymentException("@PathParam " + p + " of " + m + " must be String or primitive");
            }
            return new ParameterKind.PathParameter(pp.value(), p.getType());
        }
        return null;
    }

    private static MessageMethod message(Method m, List<Class<? extends Decoder>> decoders)
            throws DeploymentException {
        List<ParameterKind> kinds = new ArrayList<>();
        Parameter[] params = m.getParameters();
        Class<?> messageType = null;
        int messageIndex = -1;
        int lastIndex = -1;
        for (int i = 0; i < params.length; i++) {
            ParameterKind k = common(params[i], m);
            if (k != null) {
                kinds.add(k);
                continue;
            }
            kinds.add(null);
            if (messageIndex < 0) {
                messageIndex = i;
            } else if (lastIndex < 0) {
                lastIndex = i;
            } else {
                throw new DeploymentException("@OnMessage " + m + " has too many parameters");
            }
        }
        if (messageIndex < 0) {
            throw new DeploymentException("@OnMessage " + m + " has no message parameter");
        }
        if (lastIndex >= 0) {
            // a partial message: (String|ByteBuffer|byte[], boolean) in either order
            if (params[lastIndex].getType() != boolean.class) {
                int swap = messageIndex;
                messageIndex = lastIndex;
                lastIndex = swap;
            }
            Class<?> t = params[messageIndex].getType();
            if (params[lastIndex].getType() != boolean.class
                    || !(t == String.class || t == ByteBuffer.class || t == byte[].class)) {
                throw new DeploymentException("@OnMessage " + m + ": a partial message is String, ByteBuffer or"
                        + " byte[] with a boolean");
            }
            kinds.set(lastIndex, new ParameterKind.LastParameter());
        }
        kinds.set(messageIndex, new ParameterKind.MessageParameter());
        messageType = PrimitiveText.boxed(params[messageIndex].getType());
        MessageMethod.Kind kind = kindOf(messageType, decoders, m);
        long max = m.getAnnotation(OnMessage.class).maxMessageSize();
        if (max > Integer.MAX_VALUE) {
            throw new DeploymentException("@OnMessage " + m + ": maxMessageSize above Integer.MAX_VALUE");
        }
        return new MessageMethod(kind, new AnnotatedMethod(m, List.copyOf(kinds)), messageType, lastIndex >= 0, max);
    }

    private static MessageMethod.Kind kindOf(Class<?> t, List<Class<? extends Decoder>> decoders, Method m)
            throws DeploymentException {
        if (t == PongMessage.class) {
            return MessageMethod.Kind.PONG;
        }
        if (t == ByteBuffer.class || t == byte[].class || t == InputStream.class
                || CoderTypes.decodes(decoders, t, false)) {
            return MessageMethod.Kind.BINARY;
        }
        if (PrimitiveText.isSupported(t) || t == Reader.class || CoderTypes.decodes(decoders, t, true)) {
            return MessageMethod.Kind.TEXT;
        }
        throw new DeploymentException("@OnMessage " + m + ": no decoder for " + t.getName());
    }
}
