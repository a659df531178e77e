package dev.weft.websocket.jakarta.conformance;

import dev.weft.httpserver.testing.WebSocketTestServers;
import dev.weft.httpserver.websocket.conformance.Utf8AndCloseConformanceTest;

/** The engine's UTF-8 and close-handshake cases (Autobahn groups 6 and 7), every one, against a Jakarta {@code @ServerEndpoint} echo endpoint. */
class JakartaUtf8AndCloseConformanceTest extends Utf8AndCloseConformanceTest {

    @Override
    protected WebSocketTestServers.EchoServerFactory echoServers() {
        return JakartaEchoServers::whole;
    }
}
