package dev.weft.httpserver.forms;

import java.io.IOException;

/**
 * A query string, form or multipart body that is malformed or over a limit, with the status a handler should
 * answer: {@code 400} (malformed), {@code 413} (a size or count limit), {@code 415} (not the expected media type).
 */
public final class FormException extends IOException {

    private static final long serialVersionUID = 1L;

    private final int statusCode;

    /** @param statusCode the HTTP status to answer with */
    public FormException(int statusCode, String message) {
        super(message);
        this.statusCode = statusCode;
    }

    /** {@code 400} for malformed input. */
    static FormException malformed(String message) {
        return new FormException(400, message);
    }

    /** {@code 413} for a limit exceeded. */
    static FormException tooLarge(String message) {
        return new FormException(413, message);
    }

    /** The HTTP status a handler should answer with. */
    public int statusCode() {
        return statusCode;
    }
}
