package dev.weft.bench.wsjakarta;

import jakarta.websocket.OnMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;

import java.io.IOException;

/**
 * The text echo of the Jakarta WebSocket benchmark (bench/run-ws-jakarta.sh), deployed unchanged on Weft, Tomcat and
 * Jetty: every text message goes back to its sender with the blocking basic remote, as the specification's own
 * examples and most applications do. One instance per session (the default configurator); no state, no encoders.
 */
@ServerEndpoint("/echo")
public class EchoEndpoint {

    /** The container's default: one instance per session. */
    public EchoEndpoint() {
    }

    /** Sends {@code message} back; returns once the container has written it (or failed to). */
    @OnMessage
    public void onMessage(String message, Session session) throws IOException {
        session.getBasicRemote().sendText(message);
    }
}
