package dev.weft.websocket.jakarta.container;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The container's endpoints as one engine {@link HttpHandler}: the request path relative to the handler's
 * context picks the endpoint; no match is a {@code 404}.
 */
public final class RoutingHandler implements HttpHandler {

    private final EndpointRegistry registry;

    /** A handler of {@code registry}'s endpoints. */
    public RoutingHandler(EndpointRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String context = exchange.getHttpContext().getPath();
        if (context.endsWith("/")) {
            context = context.substring(0, context.length() - 1);
        }
        if (path != null && path.startsWith(context)) {
            path = path.substring(context.length());
        }
        EndpointRoutes.Match match = registry.find(path);
        if (match == null) {
            byte[] body = "No WebSocket endpoint here.\n".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            exchange.sendResponseHeaders(404, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
            return;
        }
        match.mount().handle(exchange, match.pathParameters(), null);
    }
}
