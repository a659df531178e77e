package dev.weft.websocket.jakarta.conformance;

import dev.weft.httpserver.testing.WebSocketTestServers;
import jakarta.websocket.CloseReason;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;

import java.nio.ByteBuffer;

/**
 * The echo endpoint the engine's conformance suites run against: text and binary messages go back as they came,
 * and what the endpoint sees is reported to the suite's {@link WebSocketTestServers.Events} in the engine echo
 * listener's words ("open", "close:code", "error:...").
 */
@ServerEndpoint("/echo")
public class ConformanceEcho {

    private final WebSocketTestServers.Events events;

    /** An endpoint instance reporting to {@code events}. */
    public ConformanceEcho(WebSocketTestServers.Events events) {
        this.events = events;
    }

    /** Reports the open session. */
    @OnOpen
    public void open(Session session) {
        events.add("open");
    }

    /** Text: as it came. */
    @OnMessage
    public String text(String message) {
        return message;
    }

    /** Binary: as it came. */
    @OnMessage
    public ByteBuffer binary(ByteBuffer message) {
        return message;
    }

    /** Reports the close code. */
    @OnClose
    public void close(CloseReason reason) {
        events.add("close:" + reason.getCloseCode().getCode());
    }

    /** Reports an error. */
    @OnError
    public void error(Throwable t) {
        events.add("error:" + t);
    }
}
