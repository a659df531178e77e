package dev.weft.websocket.jakarta.container;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.websocket.WebSocketHandler;
import dev.weft.httpserver.websocket.WebSocketHandshake;
import dev.weft.httpserver.websocket.WebSocketListener;
import dev.weft.websocket.jakarta.endpoint.AnnotatedEndpoint;
import dev.weft.websocket.jakarta.endpoint.EndpointMethods;
import dev.weft.websocket.jakarta.session.OpenSessions;
import dev.weft.websocket.jakarta.session.SessionBridge;
import dev.weft.websocket.jakarta.session.SessionContext;
import jakarta.websocket.Endpoint;
import jakarta.websocket.server.ServerEndpointConfig;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.Map;

/**
 * One deployed endpoint: answers its opening handshakes through the engine's {@link WebSocketHandler}, with the
 * configurator's say in order (Jakarta WebSocket §3.1): {@code checkOrigin} (403 when refused),
 * {@code getNegotiatedSubprotocol}, {@code getNegotiatedExtensions}, {@code modifyHandshake}, then
 * {@code getEndpointInstance}. Compression (permessage-deflate) and HTTP/2 (RFC 8441) are the engine's.
 */
public final class EndpointMount {

    private static final System.Logger LOG = System.getLogger(EndpointMount.class.getName());

    private final ServerEndpointConfig config;
    private final EndpointMethods methods;
    private final Deployment deployment;
    private final OpenSessions openSessions;

    EndpointMount(ServerEndpointConfig config, EndpointMethods methods, Deployment deployment) {
        this(config, methods, deployment, new OpenSessions());
    }

    EndpointMount(ServerEndpointConfig config, EndpointMethods methods, Deployment deployment,
                  OpenSessions openSessions) {
        this.config = config;
        this.methods = methods;
        this.deployment = deployment;
        this.openSessions = openSessions;
    }

    /** The endpoint's configuration as deployed. */
    public ServerEndpointConfig config() {
        return config;
    }

    /** Its open sessions. */
    public OpenSessions openSessions() {
        return openSessions;
    }

    /**
     * Answers the opening handshake on {@code exchange}; the session then runs until it ends (on this thread if it
     * is virtual).
     *
     * @param httpSession what {@code HandshakeRequest.getHttpSession()} returns, or null
     */
    public void handle(HttpExchange exchange, Map<String, String> pathParameters, Object httpSession)
            throws IOException {
        WebSocketHandler.Builder b = WebSocketHandler.builder(h -> listener(h, pathParameters, httpSession));
        if (deployment.engine() != null) {
            b.config(deployment.engine());
        }
        b.build().handle(exchange);
    }

    private WebSocketListener listener(WebSocketHandshake handshake, Map<String, String> pathParameters,
                                       Object httpSession) {
        ServerEndpointConfig.Configurator configurator = config.getConfigurator();
        try {
            if (!configurator.checkOrigin(handshake.origin())) {
                LOG.log(Level.DEBUG, () -> "origin " + handshake.origin() + " refused for " + config.getPath());
                return null;
            }
            ConnectionConfig connection = new ConnectionConfig(config);
            String subprotocol = configurator.getNegotiatedSubprotocol(config.getSubprotocols(),
                    handshake.requestedSubprotocols());
            handshake.selectSubprotocol(subprotocol == null || subprotocol.isEmpty() ? null : subprotocol);
            configurator.getNegotiatedExtensions(deployment.installed(), OfferedExtension.parse(
                    handshake.exchange().getRequestHeaders().get("Sec-WebSocket-Extensions")));
            HandshakeView view = new HandshakeView(handshake.exchange(), httpSession);
            configurator.modifyHandshake(connection, view, view.response());
            view.applyResponseHeaders();
            Object instance = configurator.getEndpointInstance(config.getEndpointClass());
            Endpoint endpoint = instance instanceof Endpoint e ? e : new AnnotatedEndpoint(instance, methods);
            return new SessionBridge(new SessionContext(deployment.container(), endpoint, connection,
                    pathParameters, handshake.exchange().getPrincipal(), deployment.defaults().get(),
                    deployment.scheduler(), openSessions));
        } catch (InstantiationException | RuntimeException e) {
            LOG.log(Level.WARNING, "WebSocket handshake for " + config.getPath() + " failed", e);
            return null;
        }
    }
}
