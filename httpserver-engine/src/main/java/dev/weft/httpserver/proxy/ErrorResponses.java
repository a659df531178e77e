package dev.weft.httpserver.proxy;

import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** The proxy's own short plain-text answers (403, 407, 502, 504 ...). Stateless. */
final class ErrorResponses {

    private ErrorResponses() {
    }

    /** Answers {@code status} with {@code message} as the body, keeping fields the caller already set. */
    static void send(HttpExchange exchange, int status, String message) throws IOException {
        byte[] body = (status + " " + message + "\n").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
