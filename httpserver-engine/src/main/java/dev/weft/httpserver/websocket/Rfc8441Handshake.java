package dev.weft.httpserver.websocket;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.ExchangeAttributes;

import java.util.List;

/**
 * The server's side of bootstrapping WebSockets over HTTP/2 (RFC 8441 §4–5): an extended {@code CONNECT}
 * with {@code :protocol websocket}, answered with {@code 200}; no key and no accept, the stream is the
 * tunnel.
 */
final class Rfc8441Handshake {

    private Rfc8441Handshake() {
    }

    /** Whether the request is an extended CONNECT for the WebSocket protocol. */
    static boolean isAttempt(HttpExchange exchange) {
        return exchange.getRequestMethod().equals("CONNECT")
                && exchange.getAttribute(ExchangeAttributes.CONNECT_PROTOCOL) instanceof String p
                && p.equalsIgnoreCase("websocket");
    }

    /**
     * Checks an extended CONNECT that {@link #isAttempt asks for a WebSocket}.
     *
     * @throws HandshakeRejection {@code 426} with {@code Sec-WebSocket-Version: 13} for another version
     */
    static OpeningRequest check(HttpExchange exchange) throws HandshakeRejection {
        // §5: "sec-websocket-version ... MUST be included ... as in RFC 6455"; Sec-WebSocket-Key is not used.
        List<String> versions = exchange.getRequestHeaders().get("Sec-WebSocket-Version");
        if (versions == null || versions.size() != 1 || !versions.get(0).strip().equals("13")) {
            throw new HandshakeRejection(426, "only WebSocket version 13 is supported",
                    "Sec-WebSocket-Version", "13");
        }
        return new OpeningRequest(exchange, true, null);
    }
}
