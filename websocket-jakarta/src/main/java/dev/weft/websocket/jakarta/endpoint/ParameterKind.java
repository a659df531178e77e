package dev.weft.websocket.jakarta.endpoint;

import dev.weft.websocket.jakarta.coding.PrimitiveText;
import jakarta.websocket.DecodeException;

/** What one parameter of an annotated method receives. */
sealed interface ParameterKind {

    /** The value of this parameter for a call. */
    Object value(CallArguments call) throws DecodeException;

    /** The {@code Session}. */
    record SessionParameter() implements ParameterKind {
        public Object value(CallArguments call) {
            return call.session();
        }
    }

    /** The {@code EndpointConfig} (@OnOpen). */
    record ConfigParameter() implements ParameterKind {
        public Object value(CallArguments call) {
            return call.config();
        }
    }

    /** The {@code CloseReason} (@OnClose). */
    record ReasonParameter() implements ParameterKind {
        public Object value(CallArguments call) {
            return call.reason();
        }
    }

    /** The {@code Throwable} (@OnError). */
    record ErrorParameter() implements ParameterKind {
        public Object value(CallArguments call) {
            return call.error();
        }
    }

    /** The message (@OnMessage). */
    record MessageParameter() implements ParameterKind {
        public Object value(CallArguments call) {
            return call.message();
        }
    }

    /** Whether the part is the last (@OnMessage, partial). */
    record LastParameter() implements ParameterKind {
        public Object value(CallArguments call) {
            return call.last();
        }
    }

    /**
     * A {@code @PathParam}: the URI template's value converted to the parameter's type (String or primitive);
     * {@code null} for a name the path does not have.
     */
    record PathParameter(String name, Class<?> type) implements ParameterKind {
        public Object value(CallArguments call) throws DecodeException {
            String raw = call.session().getPathParameters().get(name);
            if (raw == null && type.isPrimitive()) {
                throw new DecodeException(name, "the path has no parameter " + name);
            }
            try {
                return PrimitiveText.parse(raw, type);
            } catch (IllegalArgumentException e) {
                throw new DecodeException(raw, "path parameter " + name + " is not a " + type.getSimpleName(), e);
            }
        }
    }
}
