package dev.weft.spring.boot.autoconfigure;

import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.ConnectProbe;
import dev.weft.spring.boot.WeftWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Closing the application context drains in-flight requests while refusing new connections. */
@Timeout(60)
class WeftGracefulShutdownTest {

    private ConfigurableApplicationContext context;

    @AfterEach
    void closeContext() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void inFlightRequestCompletesAfterCloseStartsWhileNewConnectionsAreRefused() throws Exception {
        context = start("server.shutdown=graceful");
        int port = ((ReactiveWebServerApplicationContext) context).getWebServer().getPort();
        WeftTestApplication.Gate gate = context.getBean(WeftTestApplication.Gate.class);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        CompletableFuture<HttpResponse<String>> inFlight = client.sendAsync(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/slow"))
                        .timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(gate.entered.await(10, TimeUnit.SECONDS)).as("slow request reached the handler").isTrue();

        ConfigurableApplicationContext closing = context;
        CompletableFuture<Void> close = CompletableFuture.runAsync(closing::close);

        Await.until("the listener to refuse new connections", () -> ConnectProbe.refused(port));
        assertThat(inFlight).isNotDone();
        assertThat(close).isNotDone();

        gate.open();
        HttpResponse<String> response = inFlight.get(10, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("done");
        close.get(10, TimeUnit.SECONDS);
        assertThat(closing.isActive()).isFalse();
    }

    @Test
    void immediateShutdownDoesNotWaitForInFlightRequests() throws Exception {
        context = start("server.shutdown=immediate");
        WeftWebServer webServer = (WeftWebServer) ((ReactiveWebServerApplicationContext) context).getWebServer();
        int port = webServer.getPort();
        WeftTestApplication.Gate gate = context.getBean(WeftTestApplication.Gate.class);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        CompletableFuture<HttpResponse<String>> inFlight = client.sendAsync(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/slow"))
                        .timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(gate.entered.await(10, TimeUnit.SECONDS)).isTrue();

        // close() returns while the request is still held at the gate: nothing waited for it.
        CompletableFuture.runAsync(context::close).get(10, TimeUnit.SECONDS);

        // The held request never succeeds: either its connection is cut, or Spring, stopping, answers it
        // with 503 before the server closes.
        try {
            HttpResponse<String> response = inFlight.get(10, TimeUnit.SECONDS);
            assertThat(response.statusCode()).isEqualTo(503);
        } catch (java.util.concurrent.ExecutionException expected) {
            assertThat(expected).hasCauseInstanceOf(java.io.IOException.class);
        }
        assertThat(webServer.getPort()).isEqualTo(-1);
        gate.open();
    }

    private static ConfigurableApplicationContext start(String... properties) {
        return new SpringApplicationBuilder(WeftTestApplication.class)
                .web(WebApplicationType.REACTIVE)
                .properties("server.port=0", "spring.main.banner-mode=off")
                .properties(properties)
                .run();
    }
}
