package dev.weft.micrometer;

import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.testing.Await;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The binder as plain code, or a framework other than Spring, uses it: this module's test class path holds the
 * engine, Micrometer and the test libraries, and no Spring jar (the first test proves it). Two real engine servers
 * are bound to one registry, each with its own {@value WeftMetrics#SERVER_TAG} tag, and the JDK's HTTP client
 * sends them real requests.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftMetricsWithoutSpringTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<HttpServer> servers = new ArrayList<>();
    private final CountDownLatch slowEntered = new CountDownLatch(1);
    private final CountDownLatch slowRelease = new CountDownLatch(1);

    @AfterEach
    void stop() {
        slowRelease.countDown();
        servers.forEach(server -> server.stop(0));
        registry.close();
    }

    @Test
    void noSpringClassOrAutoConfigurationFileIsOnTheClassPath() throws Exception {
        ClassLoader loader = WeftMetricsWithoutSpringTest.class.getClassLoader();

        for (String spring : List.of("org.springframework.context.ApplicationContext",
                "org.springframework.core.SpringVersion",
                "org.springframework.boot.autoconfigure.AutoConfiguration")) {
            assertThatThrownBy(() -> Class.forName(spring, false, loader)).as(spring)
                    .isInstanceOf(ClassNotFoundException.class);
        }
        assertThat(loader.getResources(
                "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports").hasMoreElements())
                .isFalse();
        assertThat(Class.forName(WeftMetrics.class.getName(), true, loader)).isSameAs(WeftMetrics.class);
    }

    @Test
    void eachServerBoundToOneRegistryCountsItsOwnTrafficUnderItsServerTag() throws Exception {
        HttpServer api = start();
        HttpServer admin = start();
        WeftMetrics.of(api, "api").bindTo(registry);
        WeftMetrics.of(admin, "admin").bindTo(registry);
        assertThat(counter("weft.requests", "api")).isZero();
        assertThat(counter("weft.requests", "admin")).isZero();

        try (HttpClient client = HttpClient.newHttpClient()) {
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> response = client.send(request(api, "/hello").build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(response.body()).isEqualTo("hello");
            }
            HttpResponse<String> posted = client.send(request(admin, "/hello")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[1000])).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(posted.body()).isEqualTo("hello");

            // the engine counts an exchange as it ends, and the meters re-read the counters at most every 100 ms
            Await.value("weft.requests{server=api} to count 3", () -> counter("weft.requests", "api"), n -> n == 3);
            Await.value("weft.requests{server=admin} to count 1", () -> counter("weft.requests", "admin"), n -> n == 1);
            Await.value("weft.bytes.received{server=admin} to count the body",
                    () -> counter("weft.bytes.received", "admin"), n -> n >= 1000);
            double apiReceived = Await.value("weft.bytes.received{server=api} to count the requests",
                    () -> counter("weft.bytes.received", "api"), n -> n > 0);
            assertThat(apiReceived).as("the api server got no body").isLessThan(1000);
            // three responses of at least a status line and five body bytes each
            Await.value("weft.bytes.sent{server=api} to count three responses",
                    () -> counter("weft.bytes.sent", "api"), n -> n > 3 * 20);
            assertThat(counter("weft.connections.accepted", "api")).isPositive();

            CompletableFuture<HttpResponse<Void>> slow = client.sendAsync(request(admin, "/slow").build(),
                    HttpResponse.BodyHandlers.discarding());
            Await.latch("the slow exchange to be in its handler", slowEntered);
            Await.value("weft.exchanges.active{server=admin} to show the held exchange",
                    () -> gauge("weft.exchanges.active", "admin"), n -> n == 1);
            assertThat(gauge("weft.connections.active", "admin")).isPositive();
            Await.value("weft.exchanges.active{server=api} to read 0",
                    () -> gauge("weft.exchanges.active", "api"), n -> n == 0);
            slowRelease.countDown();
            assertThat(slow.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(204);
            Await.value("weft.exchanges.active{server=admin} to read 0 again",
                    () -> gauge("weft.exchanges.active", "admin"), n -> n == 0);
        }

        assertThat(rawExchange(api, "GET /hello HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\n"
                + "Content-Length: 2\r\nConnection: close\r\n\r\nab")).startsWith("HTTP/1.1 400");
        String badContentLength = ProtocolError.BAD_CONTENT_LENGTH.key();
        Await.value("weft.errors{kind=bad_content_length,server=api} to count the malformed request",
                () -> registry.get("weft.errors").tags("server", "api", "kind", badContentLength)
                        .functionCounter().count(), n -> n == 1);
        assertThat(registry.get("weft.errors").tags("server", "admin", "kind", badContentLength).functionCounter()
                .count()).isZero();
        assertThat(counter("weft.handler.exceptions", "api")).isZero();
        assertThat(counter("weft.handler.exceptions", "admin")).isZero();
    }

    private HttpServer start() throws IOException {
        HttpServer server = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        servers.add(server);
        server.createContext("/hello", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] body = "hello".getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/slow", exchange -> {
            slowEntered.countDown();
            try {
                slowRelease.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.start();
        return server;
    }

    private static HttpRequest.Builder request(HttpServer server, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path))
                .timeout(Duration.ofSeconds(10));
    }

    /** Sends raw bytes on a new connection and reads until the server closes it. */
    private static String rawExchange(HttpServer server, String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.getAddress().getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private double counter(String name, String server) {
        return registry.get(name).tag(WeftMetrics.SERVER_TAG, server).functionCounter().count();
    }

    private double gauge(String name, String server) {
        return registry.get(name).tag(WeftMetrics.SERVER_TAG, server).gauge().value();
    }
}
