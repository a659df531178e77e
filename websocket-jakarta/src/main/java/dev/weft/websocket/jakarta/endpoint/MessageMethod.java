package dev.weft.websocket.jakarta.endpoint;

/**
 * An {@code @OnMessage} method.
 *
 * @param kind           which messages it takes
 * @param method         the method
 * @param messageType    the (boxed) type of its message parameter
 * @param partial        whether it takes parts (a {@code boolean last} parameter)
 * @param maxMessageSize the annotation's {@code maxMessageSize}; -1 for none
 */
record MessageMethod(Kind kind, AnnotatedMethod method, Class<?> messageType, boolean partial, long maxMessageSize) {

    /** The native message kinds. */
    enum Kind { TEXT, BINARY, PONG }
}
