package dev.weft.httpserver.websocket;

import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** An opening request that cannot be accepted, with the response it gets. */
final class HandshakeRejection extends Exception {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String headerName;
    private final String headerValue;

    /**
     * @param headerName a field to add to the response (e.g. {@code Sec-WebSocket-Version}), or null
     */
    HandshakeRejection(int status, String message, String headerName, String headerValue) {
        super(message, null, false, false);
        this.status = status;
        this.headerName = headerName;
        this.headerValue = headerValue;
    }

    HandshakeRejection(int status, String message) {
        this(status, message, null, null);
    }

    int status() {
        return status;
    }

    /** Answers {@code exchange} with the status, the field and the message as text, and closes it. */
    void answer(HttpExchange exchange) throws IOException {
        byte[] body = (getMessage() + "\n").getBytes(StandardCharsets.UTF_8);
        if (headerName != null) {
            exchange.getResponseHeaders().set(headerName, headerValue);
        }
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(status, body.length);
        try (var out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
