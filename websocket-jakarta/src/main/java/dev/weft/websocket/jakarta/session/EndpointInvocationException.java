package dev.weft.websocket.jakarta.session;

/**
 * An application method of an annotated endpoint threw; the cause is what it threw. Lets handlers that can only
 * throw unchecked exceptions pass on a checked one.
 */
public final class EndpointInvocationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Wraps what the application threw. */
    public EndpointInvocationException(Throwable cause) {
        super(cause.getMessage(), cause);
    }
}
