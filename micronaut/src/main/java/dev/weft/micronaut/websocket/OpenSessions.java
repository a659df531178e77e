package dev.weft.micronaut.websocket;

import io.micronaut.websocket.WebSocketSession;
import jakarta.inject.Singleton;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The WebSocket sessions open on this server, of every {@code @ServerWebSocket}: what
 * {@link WebSocketSession#getOpenSessions()} and the {@link WeftWebSocketBroadcaster} see. A session is here from
 * its opening handshake until it ends.
 */
@Singleton
public final class OpenSessions {

    private final Set<WeftWebSocketSession> sessions = ConcurrentHashMap.newKeySet();

    void add(WeftWebSocketSession session) {
        sessions.add(session);
    }

    void remove(WeftWebSocketSession session) {
        sessions.remove(session);
    }

    /** The sessions open now (a snapshot). */
    public Set<WebSocketSession> open() {
        return sessions.stream().filter(WeftWebSocketSession::isOpen).collect(Collectors.toUnmodifiableSet());
    }
}
