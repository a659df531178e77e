package dev.weft.httpserver.core;

import java.io.IOException;

/**
 * The client went away from under a handler: it reset the stream or closed the connection. Handlers see it
 * from the request or response stream; the server logs it quietly, as it is no fault of the handler.
 */
public class ClientClosedException extends IOException {

    private static final long serialVersionUID = 1L;

    public ClientClosedException(String message) {
        super(message);
    }

    public ClientClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
