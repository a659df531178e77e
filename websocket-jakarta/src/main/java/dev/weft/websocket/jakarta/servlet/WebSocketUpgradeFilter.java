package dev.weft.websocket.jakarta.servlet;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.websocket.WebSocketHandler;
import dev.weft.servlet.engine.EngineExchange;
import dev.weft.websocket.jakarta.WeftServerContainer;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/**
 * Hands an opening handshake for a deployed endpoint to the container (and through it to the engine's WebSocket
 * layer, HTTP/1.1 or HTTP/2 alike); every other request goes on down the chain. It runs after the application's
 * own filters, so their security checks apply to handshakes too.
 */
final class WebSocketUpgradeFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;

    private final transient WeftServerContainer container;

    WebSocketUpgradeFilter(WeftServerContainer container) {
        this.container = container;
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpExchange exchange = EngineExchange.of(request);
        String path = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        if (exchange == null || response.isCommitted() || !WebSocketHandler.isUpgradeRequest(exchange)
                || !container.hasEndpoint(path)) {
            chain.doFilter(request, response);
            return;
        }
        container.upgrade(EngineExchange.takeOver(request), path, request.getSession(false));
    }
}
