package dev.weft.websocket.jakarta.conformance;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.httpserver.testing.TestServer;
import dev.weft.httpserver.testing.WebSocketTestServers;
import dev.weft.websocket.jakarta.WeftServerContainer;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.server.ServerEndpointConfig;

import java.io.IOException;

/**
 * Starts the engine conformance suites' server as a Jakarta container with {@link ConformanceEcho} on
 * {@code /echo}, under the suite's engine settings.
 */
final class JakartaEchoServers {

    private JakartaEchoServers() {
    }

    /** The factory the Jakarta subclasses of the suites hand out. */
    static WebSocketTestServers.EchoServer start(WebSocketConfig ws, WebSocketTestServers.Events events)
            throws IOException {
        WeftServerContainer container = WeftServerContainer.create(ws);
        try {
            container.addEndpoint(ServerEndpointConfig.Builder.create(ConformanceEcho.class, "/echo")
                    .configurator(new ServerEndpointConfig.Configurator() {
                        @Override
                        public <T> T getEndpointInstance(Class<T> endpointClass) {
                            return endpointClass.cast(new ConformanceEcho(events));
                        }
                    }).build());
        } catch (DeploymentException e) {
            container.close();
            throw new IllegalStateException(e);
        }
        TestServer server = TestServer.builder().config(ServerConfig.builder().webSocket(ws).build())
                .handle("/", container.handler()).start();
        return new WebSocketTestServers.EchoServer() {
            @Override
            public int port() {
                return server.port();
            }

            @Override
            public void close() {
                container.close();
                server.close();
            }
        };
    }
}
