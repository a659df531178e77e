package dev.weft.spring.boot.websocket;

import dev.weft.spring.boot.reactive.WeftServerHttpResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.web.reactive.socket.HandshakeInfo;
import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.server.RequestUpgradeStrategy;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.util.function.Supplier;

/**
 * WebFlux's {@link RequestUpgradeStrategy} for Weft: hands a WebSocket opening request, over HTTP/1.1 (RFC
 * 6455) or HTTP/2 (RFC 8441 extended {@code CONNECT}), to the engine, which answers the handshake and runs
 * the session; the application's {@link WebSocketHandler} sees a {@link WeftWebSocketSession}, and runs in the
 * Reactor context of the upgrade's subscription (what the request's {@code WebFilter}s wrote there).
 *
 * <p>The session's limits are the server's ({@code weft.server.websocket.*}). The returned {@code Mono}
 * completes when the session has ended. The starter installs this strategy by auto-configuration
 * ({@code WeftWebSocketAutoConfiguration}); to build a {@code HandshakeWebSocketService} by hand, pass
 * {@code new WeftRequestUpgradeStrategy()}.
 */
public class WeftRequestUpgradeStrategy implements RequestUpgradeStrategy {

    private static final Log logger = LogFactory.getLog(WeftRequestUpgradeStrategy.class);

    @Override
    public Mono<Void> upgrade(ServerWebExchange exchange, WebSocketHandler handler, @Nullable String subProtocol,
                              Supplier<HandshakeInfo> handshakeInfoFactory) {
        WeftServerHttpResponse response = weftResponse(exchange.getResponse());
        if (response == null) {
            return Mono.error(new IllegalStateException("WeftRequestUpgradeStrategy needs a request served by Weft, "
                    + "not by " + exchange.getResponse().getClass().getName()));
        }
        // The handler runs in the Reactor context the upgrade is subscribed in: what the request's filters put
        // there (ServerWebExchangeContextFilter's exchange, Spring Security's context) is there for it too.
        return Mono.deferContextual(context -> {
            HandshakeInfo info = handshakeInfoFactory.get();
            WebSocketHandlerListener listener = new WebSocketHandlerListener(handler, info, response.bufferFactory(),
                    context);
            return response.upgrade(httpExchange -> {
                try {
                    if (!dev.weft.httpserver.websocket.WebSocketHandler.upgrade(httpExchange, listener, subProtocol,
                            null)) {
                        logger.debug(exchange.getLogPrefix() + "Not a valid WebSocket opening handshake; answered "
                                + "by the engine");
                    }
                } catch (IOException ex) {
                    // The connection failed during the handshake or the session; the listener was told.
                    logger.debug(exchange.getLogPrefix() + "WebSocket connection failed: " + ex);
                }
            });
        });
    }

    private static @Nullable WeftServerHttpResponse weftResponse(ServerHttpResponse response) {
        ServerHttpResponse r = response;
        while (r instanceof ServerHttpResponseDecorator decorator) {
            r = decorator.getDelegate();
        }
        return r instanceof WeftServerHttpResponse weft ? weft : null;
    }
}
