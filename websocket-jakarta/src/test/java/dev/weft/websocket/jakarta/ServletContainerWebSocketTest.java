package dev.weft.websocket.jakarta;

import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.servlet.ServletContainer;
import dev.weft.servlet.ServletContainerConfig;
import dev.weft.websocket.jakarta.JakartaEndpointClientsTest.Received;
import dev.weft.websocket.jakarta.servlet.WebSocketInitializer;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.ServletContextListener;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.server.ServerContainer;
import jakarta.websocket.server.ServerEndpointConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jakarta WebSocket in Weft's servlet container: the initializer publishes the ServerContainer attribute, an app
 * registers an endpoint through it, and an annotated endpoint is found by the initializer's scan; handshakes go
 * through the servlet container to the engine's WebSocket layer.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServletContainerWebSocketTest {

    private ServletContainer container;
    private HttpServer server;
    private final HttpClient client = HttpClient.newHttpClient();

    @AfterEach
    void stop() {
        server.stop(0);
        container.destroy();
        client.shutdownNow();
    }

    private void start(Consumer<ServletContainerConfig.Builder> configure) throws IOException {
        ServletContainerConfig.Builder b = ServletContainerConfig.builder().contextPath("/app");
        configure.accept(b);
        container = ServletContainer.create(b.build());
        container.start();
        server = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        container.mount(server);
        server.start();
    }

    private URI uri(String scheme, String path) {
        return URI.create(scheme + "://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    private String roundTrip(String path, String text) throws Exception {
        Received r = new Received();
        WebSocket ws = client.newWebSocketBuilder().buildAsync(uri("ws", path), r).get(20, TimeUnit.SECONDS);
        ws.sendText(text, true).get(20, TimeUnit.SECONDS);
        String answer = r.next();
        ws.sendClose(1000, "").get(20, TimeUnit.SECONDS);
        assertEquals("close:1000", r.next());
        return answer;
    }

    /** Deploys the programmatic echo at {@code /prog} through the context attribute. */
    public static final class RegisteringListener implements ServletContextListener {
        @Override
        public void contextInitialized(ServletContextEvent sce) {
            Object attribute = sce.getServletContext().getAttribute("jakarta.websocket.server.ServerContainer");
            try {
                ((ServerContainer) attribute).addEndpoint(
                        ServerEndpointConfig.Builder.create(ProgrammaticEcho.class, "/prog").build());
            } catch (DeploymentException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void anAppRegistersAnEndpointThroughTheServerContainerAttribute() throws Exception {
        start(b -> b.initializer(new WebSocketInitializer()).listener(new RegisteringListener()));
        assertInstanceOf(WeftServerContainer.class,
                container.servletContext().getAttribute(ServerContainer.class.getName()));
        assertEquals("prog:hi", roundTrip("/app/prog", "hi"));
        // a request that is not a handshake goes on to the servlets (here: nothing mapped, the default 404)
        HttpResponse<String> plain = client.send(HttpRequest.newBuilder(uri("http", "/app/prog")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(404, plain.statusCode());
    }

    @Test
    void aGracefulStopClosesOpenSessionsWithGoingAwayAndDoesNotWaitOutItsDelay() throws Exception {
        start(b -> b.initializer(new WebSocketInitializer()).listener(new RegisteringListener()));
        Received r = new Received();
        WebSocket ws = client.newWebSocketBuilder().buildAsync(uri("ws", "/app/prog"), r).get(20, TimeUnit.SECONDS);
        ws.sendText("before", true).get(20, TimeUnit.SECONDS);
        assertEquals("prog:before", r.next());

        long started = System.nanoTime();
        server.stop(40); // returns once every connection has ended, at the latest after 40 s
        long took = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);

        assertEquals("close:1001", r.next());
        assertTrue(took < 30, "the stop waited " + took + " s for a session it should have closed");
    }

    /** A servlet that opens a session itself with upgradeHttpToWebSocket, as Spring's upgrade strategy does. */
    public static final class UpgradingServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            ServerContainer ws = (ServerContainer) getServletContext().getAttribute(ServerContainer.class.getName());
            try {
                ws.upgradeHttpToWebSocket(req, resp, ServerEndpointConfig.Builder.create(EchoEndpoint.class,
                        "/echo/{room}").build(), Map.of("room", req.getParameter("room")));
            } catch (DeploymentException e) {
                throw new IOException(e);
            }
        }
    }

    @Test
    void aServletUpgradesARequestItRoutedItselfThroughUpgradeHttpToWebSocket() throws Exception {
        ServletContainerInitializer addServlet = (classes, ctx) ->
                ctx.addServlet("upgrading", new UpgradingServlet()).addMapping("/manual");
        start(b -> b.initializer(new WebSocketInitializer()).initializer(addServlet));
        assertEquals("cellar:hi", roundTrip("/app/manual?room=cellar", "hi"));
        assertEquals("attic:again", roundTrip("/app/manual?room=attic", "again"));
    }

    @Test
    void anAnnotatedEndpointIsFoundByTheInitializersScan() throws Exception {
        start(b -> b.discoverInitializers(true).scanPackages("dev.weft.websocket.jakarta.scanned"));
        assertEquals("scanned:alice:hello:13", roundTrip("/app/scanned/alice", "hello"));
    }
}
