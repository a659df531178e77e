package dev.weft.httpserver.websocket;

import com.sun.net.httpserver.HttpExchange;

import java.util.List;

/**
 * A valid opening handshake, as the listener factory of a {@link WebSocketHandler} sees it, before it is
 * answered.
 */
public interface WebSocketHandshake {

    /** The opening request: an HTTP/1.1 {@code GET} with {@code Upgrade}, or an HTTP/2 extended {@code CONNECT}. */
    HttpExchange exchange();

    /** The {@code Origin} the client sent, or {@code null}. */
    String origin();

    /** The subprotocols the client offered, in its order (empty if none). */
    List<String> requestedSubprotocols();

    /** The subprotocol that will be answered: preselected from the handler's list, or {@code null}. */
    String subprotocol();

    /**
     * Selects the subprotocol to answer with.
     *
     * @param subprotocol one of {@link #requestedSubprotocols()}, or {@code null} for none
     * @throws IllegalArgumentException if the client did not offer it
     */
    void selectSubprotocol(String subprotocol);
}
