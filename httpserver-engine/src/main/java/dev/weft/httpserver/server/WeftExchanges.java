package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.core.CarrierTurn;
import dev.weft.httpserver.core.ExchangeTransport;
import dev.weft.httpserver.core.FileRegion;
import dev.weft.httpserver.forwarded.ClientOrigin;

import java.io.IOException;

/**
 * Reaches the protocol transport beneath a Weft {@link HttpExchange}, for the engine's own protocol handlers
 * (WebSocket, proxy) and for {@link dev.weft.httpserver.Weft}'s exchange operations.
 */
public final class WeftExchanges {

    private WeftExchanges() {
    }

    /** {@link dev.weft.httpserver.Weft#abort}: breaks the exchange off from any thread. */
    public static void abort(HttpExchange exchange, Throwable cause) {
        transport(exchange).breakOff(cause == null ? new IllegalStateException("exchange aborted") : cause);
    }

    /** {@link dev.weft.httpserver.Weft#isCutShort}. */
    public static boolean isCutShort(HttpExchange exchange) {
        ExchangeTransport t = transport(exchange);
        return t.clientFailed() || t.closedByStop();
    }

    /** {@link dev.weft.httpserver.Weft#threadWaited}. */
    public static void threadWaited(HttpExchange exchange, long sinceNanos) {
        CarrierTurn turn = transport(exchange).turn();
        if (turn != null) {
            turn.blockingCallReturned(sinceNanos);
        }
    }

    /** {@link dev.weft.httpserver.Weft#origin}. */
    public static ClientOrigin origin(HttpExchange exchange) {
        if (exchange instanceof WeftHttpExchange e) {
            return e.exchange().origin();
        }
        if (exchange instanceof WeftHttpsExchange e) {
            return e.exchange().origin();
        }
        return ClientOrigin.direct(exchange.getRemoteAddress(),
                exchange instanceof com.sun.net.httpserver.HttpsExchange);
    }

    /** {@link dev.weft.httpserver.Weft#sendFile}. */
    public static void sendFile(HttpExchange exchange, FileRegion region) throws IOException {
        if (exchange instanceof WeftHttpExchange e) {
            e.exchange().sendFile(region);
        } else if (exchange instanceof WeftHttpsExchange e) {
            e.exchange().sendFile(region);
        } else {
            region.copyTo(exchange.getResponseBody()); // another server's exchange: only its stream is known
        }
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
