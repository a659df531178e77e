package dev.weft.servlet.session;

/**
 * A new session was refused because the context already holds its maximum number of live sessions; the
 * container answers {@code 503 Service Unavailable}.
 */
public final class SessionLimitException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    SessionLimitException(int limit) {
        super("session limit of " + limit + " reached");
    }
}
