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
 * Starts the engine conformance suites' server as a Jakarta container with an annotated echo endpoint on
 * {@code /echo} ({@link ConformanceEcho}, or {@link PartialConformanceEcho} to go through partial delivery), under
 * the suite's engine settings.
 */
final class JakartaEchoServers {

    private JakartaEchoServers() {
    }

    /** A server whose {@code /echo} is {@link ConformanceEcho} (whole messages). */
    static WebSocketTestServers.EchoServer whole(WebSocketConfig ws, WebSocketTestServers.Events events)
            throws IOException {
        return start(ws, ConformanceEcho.class, events);
    }

    /** A server whose {@code /echo} is {@link PartialConformanceEcho} (messages in parts). */
    static WebSocketTestServers.EchoServer partial(WebSocketConfig ws, WebSocketTestServers.Events events)
            throws IOException {
        return start(ws, PartialConformanceEcho.class, events);
    }

    /**
     * A server with the annotated {@code endpoint} on {@code /echo}, a new instance per session made with the
     * suite's {@code events}.
     */
    private static WebSocketTestServers.EchoServer start(WebSocketConfig ws, Class<?> endpoint,
                                                         WebSocketTestServers.Events events) throws IOException {
        WeftServerContainer container = WeftServerContainer.create(ws);
        try {
            container.addEndpoint(ServerEndpointConfig.Builder.create(endpoint, "/echo")
                    .configurator(new ServerEndpointConfig.Configurator() {
                        @Override
                        public <T> T getEndpointInstance(Class<T> endpointClass) throws InstantiationException {
                            try {
                                return endpointClass.getConstructor(WebSocketTestServers.Events.class)
                                        .newInstance(events);
                            } catch (ReflectiveOperationException e) {
                                throw (InstantiationException) new InstantiationException(e.toString()).initCause(e);
                            }
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
