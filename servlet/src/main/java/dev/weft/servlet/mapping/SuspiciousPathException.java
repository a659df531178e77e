package dev.weft.servlet.mapping;

/**
 * A request path the container refuses to map (Servlet 6.1 §3.5.2 "Rejecting Suspicious Sequences"): the
 * answer is {@code 400 Bad Request}, and the reason is for the log only.
 */
public final class SuspiciousPathException extends Exception {

    private static final long serialVersionUID = 1L;

    SuspiciousPathException(String reason) {
        super(reason, null, false, false);
    }
}
