package dev.weft.websocket.jakarta.session;

import jakarta.websocket.Session;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The open sessions of one endpoint, for {@code Session.getOpenSessions()}. */
public final class OpenSessions {

    private final Set<Session> sessions = ConcurrentHashMap.newKeySet();

    void add(Session s) {
        sessions.add(s);
    }

    void remove(Session s) {
        sessions.remove(s);
    }

    /** A snapshot of the open sessions. */
    public Set<Session> snapshot() {
        return Set.copyOf(sessions);
    }
}
