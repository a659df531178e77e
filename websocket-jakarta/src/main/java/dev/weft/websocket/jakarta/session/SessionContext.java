package dev.weft.websocket.jakarta.session;

import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.WebSocketContainer;

import java.security.Principal;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What a new session is made of, gathered during the opening handshake.
 *
 * @param container      the container ({@code Session.getContainer()})
 * @param endpoint       the endpoint instance
 * @param config         the endpoint's configuration, with this connection's user properties
 * @param pathParameters the URI template's values
 * @param principal      the authenticated user, or null
 * @param defaults       the container's session defaults at handshake time
 * @param scheduler      the container's timer for idle timeouts
 * @param openSessions   the endpoint's open sessions
 */
public record SessionContext(WebSocketContainer container, Endpoint endpoint, EndpointConfig config,
                             Map<String, String> pathParameters, Principal principal, SessionDefaults defaults,
                             ScheduledExecutorService scheduler, OpenSessions openSessions) {
}
