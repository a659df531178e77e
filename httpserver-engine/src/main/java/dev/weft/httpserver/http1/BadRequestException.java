package dev.weft.httpserver.http1;

import dev.weft.httpserver.stats.ProtocolError;

/**
 * A request that cannot be served: carries the status to answer with and the error kind to count.
 * The connection is always closed afterwards, since its framing can no longer be trusted.
 */
final class BadRequestException extends Exception {
    private static final long serialVersionUID = 1L;


    private final int status;
    private final ProtocolError kind;

    BadRequestException(int status, ProtocolError kind, String message) {
        super(message, null, false, false);
        this.status = status;
        this.kind = kind;
    }

    int status() {
        return status;
    }

    ProtocolError kind() {
        return kind;
    }
}
