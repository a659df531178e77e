package dev.weft.httpserver.websocket;

/**
 * The peer broke a rule of RFC 6455 or RFC 7692, or a limit: the session fails with {@link #code()} (1002,
 * 1007 or 1009). Thrown on the reader thread; a checked exception so no path forgets it.
 */
final class SessionFailure extends Exception {

    private static final long serialVersionUID = 1L;

    private final int code;

    SessionFailure(int code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    /** The close code to send. */
    int code() {
        return code;
    }

    static SessionFailure protocol(String message) {
        return new SessionFailure(CloseStatus.PROTOCOL_ERROR, message);
    }

    static SessionFailure tooBig(String message) {
        return new SessionFailure(CloseStatus.MESSAGE_TOO_BIG, message);
    }

    static SessionFailure invalidPayload(String message) {
        return new SessionFailure(CloseStatus.INVALID_PAYLOAD, message);
    }
}
