package dev.weft.micronaut.websocket;

import io.micronaut.http.MediaType;
import io.micronaut.websocket.WebSocketBroadcaster;
import io.micronaut.websocket.WebSocketSession;
import jakarta.inject.Singleton;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * Micronaut's {@link WebSocketBroadcaster} on Weft: sends a message to every open session the filter accepts
 * (each session queues it without waiting for the others); the publisher emits the message once every session
 * has written it, or fails with the first send that failed.
 */
@Singleton
public final class WeftWebSocketBroadcaster implements WebSocketBroadcaster {

    private final OpenSessions sessions;

    WeftWebSocketBroadcaster(OpenSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    public <T> Publisher<T> broadcast(T message, MediaType mediaType, Predicate<WebSocketSession> filter) {
        return Mono.defer(() -> Mono.fromFuture(CompletableFuture.allOf(sessions.open().stream()
                        .filter(filter)
                        .map(session -> session.sendAsync(message, mediaType))
                        .toArray(CompletableFuture[]::new)))
                .thenReturn(message));
    }
}
