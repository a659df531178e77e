package dev.weft.websocket.jakarta.container;

import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.websocket.jakarta.session.SessionDefaults;
import jakarta.websocket.Extension;
import jakarta.websocket.WebSocketContainer;

import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/**
 * What every endpoint of one container shares.
 *
 * @param container  the public container
 * @param defaults   the current session defaults
 * @param scheduler  the timer of idle timeouts
 * @param engine     the engine's WebSocket limits for these sessions, or null for the server's
 * @param installed  the extensions the engine can negotiate
 */
public record Deployment(WebSocketContainer container, Supplier<SessionDefaults> defaults,
                         ScheduledExecutorService scheduler, WebSocketConfig engine, List<Extension> installed) {
}
