package dev.weft.httpserver.spi;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.core.ExchangeTransport;

/**
 * Reaches the protocol transport beneath a Weft {@link HttpExchange}, for the engine's own protocol handlers
 * (WebSocket, proxy); not for applications.
 */
public final class WeftExchanges {

    private WeftExchanges() {
    }

    /**
     * The transport of {@code exchange}.
     *
     * @throws IllegalArgumentException if {@code exchange} was not created by Weft
     */
    public static ExchangeTransport transport(HttpExchange exchange) {
        if (exchange instanceof WeftHttpExchange e) {
            return e.exchange().transport();
        }
        if (exchange instanceof WeftHttpsExchange e) {
            return e.exchange().transport();
        }
        throw new IllegalArgumentException("not a Weft exchange: " + exchange.getClass().getName());
    }
}
