package dev.weft.websocket.jakarta;

import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.OnMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.HandshakeRequest;
import jakarta.websocket.server.ServerEndpoint;
import jakarta.websocket.server.ServerEndpointConfig;

import java.util.List;

/** An endpoint with a configurator: refuses origins containing {@code evil}, copies a header into the session. */
@ServerEndpoint(value = "/configured", configurator = ConfiguredEndpoint.Configurator.class,
        subprotocols = {"v2", "v1"})
public class ConfiguredEndpoint {

    /** Answers {@code greeting:message:subprotocol}. */
    @OnMessage
    public String message(String m, Session s) {
        return s.getUserProperties().get("greeting") + ":" + m + ":" + s.getNegotiatedSubprotocol();
    }

    /** The test's configurator. */
    public static class Configurator extends ServerEndpointConfig.Configurator {
        @Override
        public boolean checkOrigin(String origin) {
            return origin == null || !origin.contains("evil");
        }

        @Override
        public void modifyHandshake(ServerEndpointConfig sec, HandshakeRequest request, HandshakeResponse response) {
            List<String> greeting = request.getHeaders().get("x-greeting");
            sec.getUserProperties().put("greeting", greeting == null ? "none" : greeting.get(0));
            response.getHeaders().put("X-Weft-Configured", List.of("yes"));
        }
    }
}
