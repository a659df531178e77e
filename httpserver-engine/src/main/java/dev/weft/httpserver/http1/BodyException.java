package dev.weft.httpserver.http1;

import dev.weft.httpserver.stats.ProtocolError;

import java.io.IOException;

/**
 * A request body could not be read: malformed chunking, over the size limit, or stalled. Thrown to the
 * handler's read; the connection answers {@link #status()} if no response was sent yet, then closes.
 */
final class BodyException extends IOException {
    private static final long serialVersionUID = 1L;


    private final int status;
    private final ProtocolError kind;

    BodyException(int status, ProtocolError kind, String message) {
        super(message);
        this.status = status;
        this.kind = kind;
    }

    int status() {
        return status;
    }

    /** What the client did, or {@code null} when the failure is not the client's error and is counted elsewhere. */
    ProtocolError kind() {
        return kind;
    }
}
