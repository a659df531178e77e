package dev.weft.websocket.jakarta.conformance;

import dev.weft.httpserver.testing.WebSocketTestServers;
import dev.weft.httpserver.websocket.conformance.PerMessageDeflateConformanceTest;

/**
 * The engine's permessage-deflate cases (RFC 7692, Autobahn groups 12 and 13), every one, against a Jakarta echo endpoint whose {@code @OnMessage} methods take
 * messages in parts.
 */
class JakartaPartialPerMessageDeflateConformanceTest extends PerMessageDeflateConformanceTest {

    @Override
    protected WebSocketTestServers.EchoServerFactory echoServers() {
        return JakartaEchoServers::partial;
    }
}
