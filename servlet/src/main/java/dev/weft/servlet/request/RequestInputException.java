package dev.weft.servlet.request;

/**
 * The client's request cannot be read as asked: a malformed or oversized query, form or multipart body, an
 * unknown charset. Thrown (as the 6.1 API allows for parameter parsing) from {@code getParameter},
 * {@code getParts} and friends; when the application lets it propagate, the container answers with
 * {@link #status()} (a 4xx) instead of 500, and logs it at DEBUG as the client's fault.
 */
public final class RequestInputException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final int status;

    public RequestInputException(int status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /** The 4xx status to answer with. */
    public int status() {
        return status;
    }
}
