package dev.weft.websocket.jakarta;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.httpserver.testing.RawWsClient;
import dev.weft.httpserver.testing.TestServer;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.server.ServerEndpointConfig;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

/** An engine test server with a Jakarta container mounted on {@code /}, and the tests' client scripts. */
final class JakartaServers implements AutoCloseable {

    final WeftServerContainer container;
    final TestServer server;

    private JakartaServers(WeftServerContainer container, TestServer server) {
        this.container = container;
        this.server = server;
    }

    /** A server with the echo endpoints ({@code /echo/{room}}, {@code /programmatic}) and {@code more}. */
    static JakartaServers start(Class<?>... more) throws IOException, DeploymentException {
        return start(WebSocketConfig.defaults(), more);
    }

    /** A server as {@link #start(Class[])} does, whose WebSocket sessions have the engine settings {@code ws}. */
    static JakartaServers start(WebSocketConfig ws, Class<?>... more) throws IOException, DeploymentException {
        WeftServerContainer container = WeftServerContainer.create(ws);
        container.addEndpoint(EchoEndpoint.class);
        container.addEndpoint(ServerEndpointConfig.Builder.create(ProgrammaticEcho.class, "/programmatic")
                .subprotocols(java.util.List.of("chat")).build());
        for (Class<?> c : more) {
            container.addEndpoint(c);
        }
        return new JakartaServers(container, TestServer.builder().config(ServerConfig.builder().webSocket(ws).build())
                .handle("/", container.handler()).start());
    }

    /** A raw-frame session on {@code path}, offering {@code extensions} unless null; fails unless 101. */
    RawWsClient raw(String path, String extensions) throws IOException {
        RawWsClient c = RawWsClient.open(server.port(), path, extensions);
        if (c.status != 101) {
            c.close();
            throw new AssertionError("expected 101 Switching Protocols on " + path + ", got " + c.status);
        }
        return c;
    }

    /** {@code s} in UTF-8. */
    static byte[] utf8(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    URI ws(String path) {
        return URI.create("ws://127.0.0.1:" + server.port() + path);
    }

    /** A test resource copied to a temporary file, for an external client. */
    static Path script(String name) {
        try (InputStream in = JakartaServers.class.getResourceAsStream("/jakarta/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no test resource /jakarta/" + name);
            }
            Path dir = Files.createTempDirectory("weft-jakarta-client");
            Path p = dir.resolve(name);
            Files.copy(in, p);
            p.toFile().deleteOnExit();
            dir.toFile().deleteOnExit();
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        container.close();
        server.close();
    }
}
