package dev.weft.websocket.jakarta;

import jakarta.websocket.DeploymentException;
import jakarta.websocket.OnMessage;
import jakarta.websocket.server.ServerEndpoint;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Deployment checks and the URI-template match of Jakarta WebSocket §3.1.1. */
class EndpointPathMatchingTest {

    /** Has two text methods: invalid. */
    @ServerEndpoint("/twice")
    public static class TwoTextMethods {
        @OnMessage
        public void a(String s) {
        }

        @OnMessage
        public void b(java.io.Reader r) {
        }
    }

    @Test
    void invalidPathsAndEndpointsAndEquivalentTemplatesAreDeploymentErrors() throws Exception {
        try (WeftServerContainer c = WeftServerContainer.create()) {
            c.addEndpoint(EchoEndpoint.class);
            assertThrows(DeploymentException.class, () -> c.addEndpoint(TwoTextMethods.class));
            assertThrows(DeploymentException.class, () -> c.addEndpoint(
                    jakarta.websocket.server.ServerEndpointConfig.Builder.create(ProgrammaticEcho.class, "/echo/{other}")
                            .build()));
            assertThrows(DeploymentException.class, () -> c.addEndpoint(
                    jakarta.websocket.server.ServerEndpointConfig.Builder.create(ProgrammaticEcho.class, "/a/../b")
                            .build()));
            assertThrows(DeploymentException.class, () -> c.addEndpoint(String.class));
            assertTrue(c.hasEndpoint("/echo/x"));
            assertFalse(c.hasEndpoint("/echo/"));
            assertFalse(c.hasEndpoint("/echo/x/y"));
        }
    }
}
