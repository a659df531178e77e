package dev.weft.micronaut.app;

import io.micronaut.runtime.event.annotation.EventListener;
import io.micronaut.websocket.WebSocketSession;
import io.micronaut.websocket.event.WebSocketMessageProcessedEvent;
import io.micronaut.websocket.event.WebSocketSessionClosedEvent;
import io.micronaut.websocket.event.WebSocketSessionOpenEvent;
import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What happened to each WebSocket session on the server, by session id (the client's {@code Sec-WebSocket-Key},
 * on Netty and on Weft): the calls of the failure sockets' {@code @OnOpen}, {@code @OnMessage}, {@code @OnError}
 * and {@code @OnClose}, and, for every {@code @ServerWebSocket}, the lifecycle events Micronaut publishes
 * ({@link WebSocketSessionOpenEvent}, {@link WebSocketMessageProcessedEvent}, {@link WebSocketSessionClosedEvent}),
 * received here by an event listener as an application would.
 */
@Singleton
public class SocketLog {

    private final Map<String, List<String>> calls = new ConcurrentHashMap<>();
    private final Map<String, List<String>> events = new ConcurrentHashMap<>();
    private final Map<String, String> paths = new ConcurrentHashMap<>();

    void call(WebSocketSession session, String what) {
        add(calls, session.getId(), what);
    }

    /** Records the open event, noting whether the session's {@code @OnOpen} (of a failure socket) had run. */
    @EventListener
    void opened(WebSocketSessionOpenEvent event) {
        String id = event.getSource().getId();
        add(events, id, "open " + event.getSource().getRequestURI().getPath()
                + (calls(id).contains("onOpen") ? " after @OnOpen" : ""));
        paths.put(id, event.getSource().getRequestURI().getPath());
    }

    @EventListener
    void processed(WebSocketMessageProcessedEvent<?> event) {
        add(events, event.getSource().getId(), "processed " + event.getMessage());
    }

    @EventListener
    void closed(WebSocketSessionClosedEvent event) {
        add(events, event.getSource().getId(), "closed");
    }

    /** The calls made to the session's socket bean so far. */
    public List<String> calls(String sessionId) {
        return snapshot(calls, sessionId);
    }

    /** The ids of the sessions opened on {@code path} so far. */
    public List<String> sessionsOn(String path) {
        return paths.entrySet().stream().filter(e -> e.getValue().equals(path)).map(Map.Entry::getKey).toList();
    }

    /** The events published for the session so far. */
    public List<String> events(String sessionId) {
        return snapshot(events, sessionId);
    }

    /**
     * Waits (at most 20 s) until the session's closed event has been published and, for the failure sockets,
     * its {@code @OnClose} has been called: after both nothing more happens to it.
     */
    public boolean awaitEnd(String sessionId, boolean withOnClose) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        synchronized (this) {
            while (!ended(sessionId, withOnClose)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }
        return true;
    }

    private boolean ended(String sessionId, boolean withOnClose) {
        return events(sessionId).contains("closed")
                && (!withOnClose || calls(sessionId).stream().anyMatch(c -> c.startsWith("onClose")));
    }

    private void add(Map<String, List<String>> log, String sessionId, String what) {
        List<String> list = log.computeIfAbsent(sessionId, id -> new ArrayList<>());
        synchronized (list) {
            list.add(what);
        }
        synchronized (this) {
            notifyAll();
        }
    }

    private static List<String> snapshot(Map<String, List<String>> log, String sessionId) {
        List<String> list = log.get(sessionId);
        if (list == null) {
            return List.of();
        }
        synchronized (list) {
            return List.copyOf(list);
        }
    }
}
