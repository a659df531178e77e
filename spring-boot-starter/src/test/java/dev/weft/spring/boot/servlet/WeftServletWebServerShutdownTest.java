package dev.weft.spring.boot.servlet;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.web.server.GracefulShutdownResult;
import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.servlet.ServletRegistrationBean;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Boot's servlet factory contract on Weft: graceful shutdown with a blocking and an asynchronous request
 * in flight, new connections refused meanwhile, idle keep-alive connections closed, and {@code stop} cutting
 * the wait short.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftServletWebServerShutdownTest {

    private final ServletServers servers = new ServletServers();

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicReference<AsyncContext> async = new AtomicReference<>();

    @AfterEach
    void destroyServers() {
        release.countDown();
        servers.close();
    }

    @Test
    void withNothingInFlightGracefulShutdownIsIdleAtOnce() throws Exception {
        WebServer server = servers.start(graceful(), ServletServers.hello());
        CompletableFuture<GracefulShutdownResult> result = new CompletableFuture<>();

        server.shutDownGracefully(result::complete);

        assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo(GracefulShutdownResult.IDLE);
    }

    @Test
    void aBlockingRequestInFlightFinishesBeforeTheShutdownIsIdle() throws Exception {
        WebServer server = servers.start(graceful(), blocking());
        CompletableFuture<HttpResponse<String>> inFlight = inFlight(server, "/block");
        CompletableFuture<GracefulShutdownResult> result = new CompletableFuture<>();

        server.shutDownGracefully(result::complete);

        assertRefusesNewConnections(server.getPort());
        assertThat(result).as("shutdown waits for the request").isNotDone();
        release.countDown();
        HttpResponse<String> response = inFlight.get(30, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("finished");
        assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo(GracefulShutdownResult.IDLE);
    }

    @Test
    void anAsyncRequestInFlightHoldsTheShutdownUntilItCompletes() throws Exception {
        WebServer server = servers.start(graceful(), asynchronous());
        CompletableFuture<HttpResponse<String>> inFlight = inFlight(server, "/async");
        CompletableFuture<GracefulShutdownResult> result = new CompletableFuture<>();

        server.shutDownGracefully(result::complete);

        assertRefusesNewConnections(server.getPort());
        assertThat(result).as("shutdown waits for the async request").isNotDone();
        assertThat(inFlight).isNotDone();
        AsyncContext context = async.get();
        Thread.ofVirtual().start(() -> {
            try {
                context.getResponse().getWriter().print("completed");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            context.complete();
        });
        assertThat(inFlight.get(30, TimeUnit.SECONDS).body()).isEqualTo("completed");
        assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo(GracefulShutdownResult.IDLE);
    }

    @Test
    void stopDuringGracefulShutdownReportsRequestsActive() throws Exception {
        WebServer server = servers.start(graceful(), blocking());
        inFlight(server, "/block");
        CompletableFuture<GracefulShutdownResult> result = new CompletableFuture<>();
        server.shutDownGracefully(result::complete);

        server.stop();

        assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo(GracefulShutdownResult.REQUESTS_ACTIVE);
    }

    @Test
    void stopDuringGracefulShutdownReportsRequestsActiveEvenWhenTheHandlerIgnoresInterrupts() throws Exception {
        WebServer server = servers.start(graceful(), stubborn());
        inFlight(server, "/stubborn");
        CompletableFuture<GracefulShutdownResult> result = new CompletableFuture<>();
        server.shutDownGracefully(result::complete);

        server.stop();

        assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo(GracefulShutdownResult.REQUESTS_ACTIVE);
        ServletServers.await("the graceful-shutdown thread to end", () -> Thread.getAllStackTraces().keySet()
                .stream().noneMatch(t -> t.getName().equals("weft-graceful-shutdown")));
    }

    @Test
    void withoutGracefulShutdownStopReturnsWhileARequestIsBlocked() throws Exception {
        WebServer server = servers.start(ServletServers.factory(), blocking());
        inFlight(server, "/block");
        CompletableFuture<GracefulShutdownResult> result = new CompletableFuture<>();

        server.shutDownGracefully(result::complete);
        server.stop();

        assertThat(result.getNow(null)).isEqualTo(GracefulShutdownResult.IMMEDIATE);
        assertThat(server.getPort()).isEqualTo(-1);
    }

    @Test
    void anIdleKeepAliveConnectionIsClosedWhenGracefulShutdownBegins() throws Exception {
        WebServer server = servers.start(graceful(), ServletServers.hello(), blocking());
        inFlight(server, "/block");
        try (Socket idle = new Socket("127.0.0.1", server.getPort())) {
            idle.setSoTimeout(20_000);
            OutputStream out = idle.getOutputStream();
            InputStream in = idle.getInputStream();
            out.write(request().getBytes(StandardCharsets.US_ASCII));
            assertThat(readResponse(in)).startsWith("HTTP/1.1 200").doesNotContain("Connection: close")
                    .endsWith("Hello World");

            server.shutDownGracefully(result -> { });

            assertThat(endOfStreamOrReset(in, out)).as("idle connection closed, no response").isTrue();
        }
    }

    private static WeftServletWebServerFactory graceful() {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.setShutdown(Shutdown.GRACEFUL);
        return factory;
    }

    private CompletableFuture<HttpResponse<String>> inFlight(WebServer server, String path)
            throws InterruptedException {
        CompletableFuture<HttpResponse<String>> response = servers.client.sendAsync(
                HttpRequest.newBuilder(ServletServers.uri(server, path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(entered.await(20, TimeUnit.SECONDS)).as("request reached the servlet").isTrue();
        return response;
    }

    /** Waits until the listening socket is gone (the shutdown closes it on the engine's acceptor thread). */
    private static void assertRefusesNewConnections(int port) {
        ServletServers.await("new connections refused", () -> {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                return false;
            } catch (ConnectException refused) {
                return true;
            } catch (IOException other) {
                return false;
            }
        });
    }

    private static String request() {
        return "GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n";
    }

    /** One response with a {@code Content-Length}: headers and body. */
    private static String readResponse(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed in the headers: " + head);
            }
            head.append((char) b);
        }
        int length = Integer.parseInt(head.toString().lines()
                .filter(l -> l.regionMatches(true, 0, "Content-Length:", 0, 15))
                .findFirst().orElseThrow().substring(15).trim());
        return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    /** Sends a request on a connection the server closed: true if nothing comes back but its end. */
    private static boolean endOfStreamOrReset(InputStream in, OutputStream out) {
        try {
            out.write(request().getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return in.read() < 0;
        } catch (SocketException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code /block}: waits for {@link #release}, then answers {@code finished}. */
    private ServletRegistrationBean<HttpServlet> blocking() {
        ServletRegistrationBean<HttpServlet> registration = new ServletRegistrationBean<>(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                resp.getWriter().print("finished");
            }
        }, "/block");
        registration.setName("block");
        return registration;
    }

    /** {@code /stubborn}: blocks until released, and goes on waiting when interrupted. */
    private ServletRegistrationBean<HttpServlet> stubborn() {
        ServletRegistrationBean<HttpServlet> registration = new ServletRegistrationBean<>(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                entered.countDown();
                while (release.getCount() > 0) {
                    try {
                        release.await();
                    } catch (InterruptedException ignored) {
                        // a handler that does not let itself be stopped
                    }
                }
                resp.getWriter().print("finished");
            }
        }, "/stubborn");
        registration.setName("stubborn");
        return registration;
    }

    /** {@code /async}: starts asynchronous processing (no timeout) and leaves it to the test. */
    private ServletRegistrationBean<HttpServlet> asynchronous() {
        ServletRegistrationBean<HttpServlet> registration = new ServletRegistrationBean<>(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                AsyncContext context = req.startAsync();
                context.setTimeout(0);
                async.set(context);
                entered.countDown();
            }
        }, "/async");
        registration.setAsyncSupported(true);
        registration.setName("async");
        return registration;
    }
}
