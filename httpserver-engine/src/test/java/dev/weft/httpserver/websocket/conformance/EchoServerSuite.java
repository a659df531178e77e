package dev.weft.httpserver.websocket.conformance;

import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.httpserver.testing.WebSocketTestServers;
import org.junit.jupiter.api.AfterEach;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What the conformance suites share: their servers under test, started through {@link #echoServers()} and closed
 * after each case, and what the servers' echo endpoint reported. Other modules subclass the suites and override
 * {@link #echoServers()} to run every case against their own {@code /echo} endpoint (text and binary echo).
 */
public abstract class EchoServerSuite {

    /** What the echo endpoint saw ("close:code", ...). */
    protected final WebSocketTestServers.Events events = new WebSocketTestServers.Events();
    private final List<WebSocketTestServers.EchoServer> started = new ArrayList<>();

    /** How a server under test is started: the engine's own echo listener unless a subclass says otherwise. */
    protected WebSocketTestServers.EchoServerFactory echoServers() {
        return WebSocketTestServers::engineEchoServer;
    }

    /** Starts a server under test with {@code ws}'s settings; it is closed after the case. */
    protected final WebSocketTestServers.EchoServer startEcho(WebSocketConfig ws) throws IOException {
        WebSocketTestServers.EchoServer server = echoServers().start(ws, events);
        started.add(server);
        return server;
    }

    @AfterEach
    void closeServers() {
        started.forEach(WebSocketTestServers.EchoServer::close);
        started.clear();
    }
}
