package dev.weft.websocket.jakarta.endpoint;

import dev.weft.websocket.jakarta.session.EndpointInvocationException;
import jakarta.websocket.DecodeException;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;

/** A lifecycle or message method of an annotated endpoint, with what each parameter receives. */
record AnnotatedMethod(Method method, List<ParameterKind> parameters) {

    /**
     * Calls the method on {@code target}.
     *
     * @throws EndpointInvocationException with what the method threw
     * @throws DecodeException             if a path parameter cannot be converted
     */
    Object invoke(Object target, CallArguments call) throws DecodeException {
        Object[] args = new Object[parameters.size()];
        for (int i = 0; i < args.length; i++) {
            args[i] = parameters.get(i).value(call);
        }
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw new EndpointInvocationException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new EndpointInvocationException(e);
        }
    }
}
