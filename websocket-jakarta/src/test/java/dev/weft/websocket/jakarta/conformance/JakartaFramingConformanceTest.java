package dev.weft.websocket.jakarta.conformance;

import dev.weft.httpserver.testing.WebSocketTestServers;
import dev.weft.httpserver.websocket.conformance.FramingConformanceTest;

/** The engine's RFC 6455 framing cases (Autobahn groups 1–5 and 9), every one, against a Jakarta {@code @ServerEndpoint} echo endpoint. */
class JakartaFramingConformanceTest extends FramingConformanceTest {

    @Override
    protected WebSocketTestServers.EchoServerFactory echoServers() {
        return JakartaEchoServers::whole;
    }
}
