package dev.weft.websocket.jakarta.conformance;

import dev.weft.httpserver.testing.WebSocketTestServers;
import dev.weft.httpserver.websocket.conformance.FramingConformanceTest;

/**
 * The engine's RFC 6455 framing cases (Autobahn groups 1–5 and 9), every one, against a Jakarta echo endpoint whose {@code @OnMessage} methods take
 * messages in parts.
 */
class JakartaPartialFramingConformanceTest extends FramingConformanceTest {

    @Override
    protected WebSocketTestServers.EchoServerFactory echoServers() {
        return JakartaEchoServers::partial;
    }
}
