package dev.weft.spring.boot.servlet;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.servlet.ServletContextInitializer;
import org.springframework.boot.web.servlet.ServletRegistrationBean;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The servers a test of {@link WeftServletWebServerFactory} makes, destroyed by {@link #close()} (call it from
 * {@code @AfterEach}), and the JDK {@link HttpClient} it talks to them with.
 */
final class ServletServers implements AutoCloseable {

    private static final Duration LIMIT = Duration.ofSeconds(20);

    private final List<WebServer> servers = new ArrayList<>();

    final HttpClient client = HttpClient.newBuilder().connectTimeout(LIMIT).build();

    /** A factory for any free port. */
    static WeftServletWebServerFactory factory() {
        return new WeftServletWebServerFactory(0);
    }

    /** {@code factory}'s server, not started; destroyed by {@link #close()}. */
    WebServer create(WeftServletWebServerFactory factory, ServletContextInitializer... initializers) {
        WebServer server = factory.getWebServer(initializers);
        servers.add(server);
        return server;
    }

    /** {@code factory}'s server, started. */
    WebServer start(WeftServletWebServerFactory factory, ServletContextInitializer... initializers) {
        WebServer server = create(factory, initializers);
        server.start();
        return server;
    }

    /** Registers {@link HelloServlet} at {@code /hello}. */
    static ServletContextInitializer hello() {
        return new ServletRegistrationBean<>(new HelloServlet(), "/hello");
    }

    /** GET {@code path} on {@code server} over cleartext HTTP/1.1. */
    HttpResponse<String> get(WebServer server, String path) throws IOException, InterruptedException {
        return send(server, HttpRequest.newBuilder(uri(server, path)).GET());
    }

    /** Sends {@code request} (HTTP/1.1) and reads the body as text. */
    HttpResponse<String> send(WebServer server, HttpRequest.Builder request)
            throws IOException, InterruptedException {
        return client.send(request.version(HttpClient.Version.HTTP_1_1).timeout(LIMIT).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static URI uri(WebServer server, String path) {
        return URI.create("http://127.0.0.1:" + server.getPort() + path);
    }

    /** Waits until {@code condition} holds; fails with {@code what} if it does not within a generous limit. */
    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }

    @Override
    public void close() {
        for (WebServer server : servers) {
            server.destroy();
        }
        servers.clear();
        client.close();
    }

    /** Answers every request with {@code Hello World} (text/plain). */
    static final class HelloServlet extends HttpServlet {
        @Override
        protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.setContentType("text/plain");
            resp.getWriter().print("Hello World");
        }
    }
}
