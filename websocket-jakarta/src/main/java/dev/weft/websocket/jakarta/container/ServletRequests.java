package dev.weft.websocket.jakarta.container;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.servlet.engine.EngineExchange;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Servlet requests of Weft's servlet container as engine exchanges, for {@code upgradeHttpToWebSocket}. Only
 * loaded when a caller passes something that is not an {@link HttpExchange}; without the servlet classes the
 * caller gets a {@link LinkageError}.
 */
public final class ServletRequests {

    /**
     * A request's exchange, taken over from the servlet container.
     *
     * @param exchange    the exchange
     * @param httpSession the request's existing {@code HttpSession}, or null
     */
    public record Taken(HttpExchange exchange, Object httpSession) {
    }

    private ServletRequests() {
    }

    /** Takes over the exchange of {@code request}; null if it is not a request of Weft's servlet container. */
    public static Taken takeOver(Object request) {
        if (!(request instanceof HttpServletRequest r) || EngineExchange.of(r) == null) {
            return null;
        }
        return new Taken(EngineExchange.takeOver(r), r.getSession(false));
    }
}
