package dev.weft.spring.boot;

import dev.weft.httpserver.config.Http2Config;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.ConnectProbe;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.web.server.GracefulShutdownResult;
import org.springframework.boot.web.server.Http2;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.WebServerException;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Lifecycle of a {@link WeftWebServer} made by a {@link WeftReactiveWebServerFactory}, without Spring contexts. */
@Timeout(60)
class WeftWebServerTest {

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private final CountDownLatch slowEntered = new CountDownLatch(1);

    private final Sinks.Empty<Void> slowRelease = Sinks.empty();

    private final CountDownLatch stubbornRelease = new CountDownLatch(1);

    private final HttpHandler handler = (request, response) -> {
        if (request.getPath().value().equals("/slow")) {
            slowEntered.countDown();
            return slowRelease.asMono().timeout(Duration.ofSeconds(20)).then(write(response, "done"));
        }
        if (request.getPath().value().equals("/stubborn")) {
            // Blocks the thread the pipeline was subscribed on, and goes on waiting when interrupted.
            slowEntered.countDown();
            while (stubbornRelease.getCount() > 0) {
                try {
                    stubbornRelease.await();
                } catch (InterruptedException ignored) {
                    // a handler that does not let itself be stopped
                }
            }
            return write(response, "done");
        }
        return write(response, "hello");
    };

    private WebServer webServer;

    @AfterEach
    void destroy() {
        if (webServer != null) {
            webServer.destroy();
        }
        slowRelease.tryEmitEmpty();
    }

    @Test
    void getWebServerListensOnlyAfterStart() throws Exception {
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory(0);
        WeftWebServer server = create(factory);

        assertThat(server.getPort()).isEqualTo(-1);
        assertThat(server.getServer()).isNull();

        server.start();

        assertThat(server.getPort()).isPositive();
        assertThat(server.getServer()).matches(Weft::isWeft, "a Weft server");
        HttpResponse<String> response = get(server.getPort(), "/");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("hello");
        assertThat(response.headers().firstValue("Server")).hasValue("Weft");
    }

    @Test
    void startAndStopAreIdempotent() throws Exception {
        WeftWebServer server = create(new WeftReactiveWebServerFactory(0));
        server.start();
        int port = server.getPort();
        var engine = server.getServer();

        server.start();
        assertThat(server.getPort()).isEqualTo(port);
        assertThat(server.getServer()).isSameAs(engine);

        server.stop();
        server.stop();
        assertThat(server.getPort()).isEqualTo(-1);
        Await.until("the listener to refuse new connections", () -> ConnectProbe.refused(port));
    }

    @Test
    void stoppedServerCanStartAgainButADestroyedOneCannot() throws Exception {
        WeftWebServer server = create(new WeftReactiveWebServerFactory(0));
        server.start();
        server.stop();

        server.start();
        assertThat(get(server.getPort(), "/").statusCode()).isEqualTo(200);

        server.destroy();
        assertThat(server.getPort()).isEqualTo(-1);
        assertThatThrownBy(server::start).isInstanceOf(WebServerException.class).hasMessageContaining("destroyed");
    }

    @Test
    void portMinusOneNeverListens() {
        WeftWebServer server = create(new WeftReactiveWebServerFactory(-1));

        server.start();

        assertThat(server.getPort()).isEqualTo(-1);
        assertThat(server.getServer()).isNull();
    }

    @Test
    void listensOnTheConfiguredAddress() throws Exception {
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory(0);
        factory.setAddress(InetAddress.getLoopbackAddress());
        WeftWebServer server = create(factory);

        server.start();

        assertThat(server.getServer().getAddress().getAddress()).isEqualTo(InetAddress.getLoopbackAddress());
    }

    @Test
    void takenPortFailsWithPortInUseException() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(0));
            WeftWebServer server = create(new WeftReactiveWebServerFactory(taken.getLocalPort()));

            assertThatThrownBy(server::start).isInstanceOfSatisfying(PortInUseException.class,
                    e -> assertThat(e.getPort()).isEqualTo(taken.getLocalPort()));
            assertThat(server.getPort()).isEqualTo(-1);
        }
    }

    @Test
    void http2IsOffUnlessEnabled() {
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory(0);

        Http2Config http2 = create(factory).getServerConfig().http2();

        assertThat(http2.h2Enabled()).isFalse();
        assertThat(http2.h2cEnabled()).isFalse();
    }

    @Test
    void enabledHttp2ServesH2AndH2cWithTheFactorySettings() {
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory(0);
        factory.setHttp2(enabledHttp2());
        factory.setHttp2Settings(Http2Config.builder().maxConcurrentStreams(9).build());
        WeftWebServer server = create(factory);
        server.start();

        Http2Config http2 = Weft.config(server.getServer()).http2();
        assertThat(http2.h2Enabled()).isTrue();
        assertThat(http2.h2cEnabled()).isTrue();
        assertThat(http2.maxConcurrentStreams()).isEqualTo(9);
    }

    @Test
    void h2cSwitchedOffInTheSettingsStaysOffWithHttp2Enabled() {
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory(0);
        factory.setHttp2(enabledHttp2());
        factory.setHttp2Settings(Http2Config.builder().h2cEnabled(false).build());

        Http2Config http2 = factory.buildServerConfig().http2();

        assertThat(http2.h2Enabled()).isTrue();
        assertThat(http2.h2cEnabled()).isFalse();
    }

    @Test
    void serverCustomizerHasTheLastWordOnHttp2() {
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory(0);
        factory.addServerCustomizers(builder -> builder.http2(Http2Config.defaults()));

        assertThat(factory.buildServerConfig().http2()).isEqualTo(Http2Config.defaults());
    }

    private static Http2 enabledHttp2() {
        Http2 http2 = new Http2();
        http2.setEnabled(true);
        return http2;
    }

    @Test
    void explicitServerHeaderReplacesTheEngineDefault() throws Exception {
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory(0);
        factory.setServerHeader("Acme");
        WeftWebServer server = create(factory);
        server.start();

        assertThat(get(server.getPort(), "/").headers().firstValue("Server")).hasValue("Acme");
    }

    @Test
    void customizersRunInOrderAfterTheFactorySettings() {
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory(0);
        factory.setMaxConnections(5);
        factory.setMaxHeaderCount(6);
        factory.addServerCustomizers(builder -> builder.maxConnections(7), builder -> builder.maxConnections(8));
        WeftWebServer server = create(factory);
        server.start();

        var config = Weft.config(server.getServer());
        assertThat(config.maxConnections()).isEqualTo(8);
        assertThat(config.maxHeaderCount()).isEqualTo(6);
    }

    @Test
    void invalidSettingsFailAtGetWebServer() {
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory(0);
        factory.setMaxConnections(0);

        assertThatThrownBy(() -> factory.getWebServer(handler)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxConnections");
    }

    @Test
    void immediateShutdownModeReportsImmediate() throws Exception {
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory(0);
        factory.setShutdown(Shutdown.IMMEDIATE);
        WeftWebServer server = create(factory);
        server.start();
        CompletableFuture<GracefulShutdownResult> result = new CompletableFuture<>();

        server.shutDownGracefully(result::complete);

        assertThat(result).isCompletedWithValue(GracefulShutdownResult.IMMEDIATE);
    }

    @Test
    void gracefulShutdownWaitsForTheInFlightRequestThenReportsIdle() throws Exception {
        WeftWebServer server = startGraceful();
        int port = server.getPort();
        CompletableFuture<HttpResponse<String>> inFlight = sendAsync(port, "/slow");
        assertThat(slowEntered.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<GracefulShutdownResult> result = new CompletableFuture<>();

        server.shutDownGracefully(result::complete);

        Await.until("the listener to refuse new connections", () -> ConnectProbe.refused(port));
        assertThat(result).isNotDone();
        slowRelease.tryEmitEmpty();
        HttpResponse<String> response = inFlight.get(10, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("done");
        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo(GracefulShutdownResult.IDLE);
    }

    @Test
    void gracefulShutdownOfAnIdleServerReportsIdle() throws Exception {
        WeftWebServer server = startGraceful();
        CompletableFuture<GracefulShutdownResult> result = new CompletableFuture<>();

        server.shutDownGracefully(result::complete);

        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo(GracefulShutdownResult.IDLE);
    }

    @Test
    void stopCutsAPendingGracefulShutdownShort() throws Exception {
        WeftWebServer server = startGraceful();
        // A POST: the JDK client would retry a GET whose connection closed unanswered on a new connection, and
        // that one may still be accepted, and answered 503, while the listener closes.
        CompletableFuture<HttpResponse<String>> inFlight = client.sendAsync(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + "/slow"))
                        .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(slowEntered.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<GracefulShutdownResult> result = new CompletableFuture<>();
        server.shutDownGracefully(result::complete);

        server.stop();

        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo(GracefulShutdownResult.REQUESTS_ACTIVE);
        assertThat(inFlight).failsWithin(Duration.ofSeconds(10));
        assertThat(server.getPort()).isEqualTo(-1);
    }

    @Test
    void stopCutsAGracefulShutdownShortEvenWhenTheHandlerIgnoresInterrupts() throws Exception {
        WeftWebServer server = startGraceful();
        try {
            client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + "/stubborn"))
                    .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(slowEntered.await(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<GracefulShutdownResult> result = new CompletableFuture<>();
            server.shutDownGracefully(result::complete);

            server.stop();

            assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo(GracefulShutdownResult.REQUESTS_ACTIVE);
            Await.until("the graceful-shutdown thread to end", () -> Thread.getAllStackTraces().keySet().stream()
                    .noneMatch(t -> t.getName().equals("weft-graceful-shutdown")));
        } finally {
            stubbornRelease.countDown();
        }
    }

    private WeftWebServer startGraceful() {
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory(0);
        factory.setShutdown(Shutdown.GRACEFUL);
        WeftWebServer server = create(factory);
        server.start();
        return server;
    }

    private WeftWebServer create(WeftReactiveWebServerFactory factory) {
        WeftWebServer server = (WeftWebServer) factory.getWebServer(handler);
        webServer = server;
        return server;
    }

    private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return client.send(request(port, path), HttpResponse.BodyHandlers.ofString());
    }

    private CompletableFuture<HttpResponse<String>> sendAsync(int port, String path) {
        return client.sendAsync(request(port, path), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest request(int port, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .build();
    }

    private static Mono<Void> write(org.springframework.http.server.reactive.ServerHttpResponse response,
            String body) {
        response.setStatusCode(HttpStatus.OK);
        DataBuffer buffer = response.bufferFactory().wrap(body.getBytes(StandardCharsets.UTF_8));
        return response.writeWith(Mono.just(buffer));
    }
}
