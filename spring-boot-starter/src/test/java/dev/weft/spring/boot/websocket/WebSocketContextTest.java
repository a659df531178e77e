package dev.weft.spring.boot.websocket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import reactor.core.publisher.Mono;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A WebFlux {@code WebSocketHandler} on Weft runs in the Reactor context of its upgrade request: the exchange
 * {@code ServerWebExchangeContextFilter} put there, and the security context Spring Security loaded from a
 * logged-in session, reach the handler, with the JDK's {@code HttpClient} and Reactor Netty's WebSocket client.
 */
@SpringBootTest(classes = ContextTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WebSocketContextTest {

    @LocalServerPort
    int port;

    private URI ws(String path) {
        return URI.create("ws://127.0.0.1:" + port + path);
    }

    /** The first text message of a session opened by the JDK client with these request headers. */
    private String firstMessageFromJdkClient(String path, Map<String, String> headers) throws Exception {
        CompletableFuture<String> first = new CompletableFuture<>();
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            WebSocket.Builder builder = client.newWebSocketBuilder();
            headers.forEach(builder::header);
            WebSocket socket = builder.buildAsync(ws(path), new WebSocket.Listener() {
                @Override
                public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                    first.complete(data.toString());
                    return null;
                }

                @Override
                public void onError(WebSocket webSocket, Throwable error) {
                    first.completeExceptionally(error);
                }
            }).get(10, TimeUnit.SECONDS);
            try {
                return first.get(10, TimeUnit.SECONDS);
            } finally {
                socket.abort();
            }
        }
    }

    /** The first text message of a session opened by Reactor Netty's client with these request headers. */
    private String firstMessageFromReactorNetty(String path, Map<String, String> headers) {
        return reactor.netty.http.client.HttpClient.create()
                .headers(h -> headers.forEach(h::set))
                .websocket()
                .uri(ws(path))
                .handle((in, out) -> in.receive().asString().next())
                .next()
                .switchIfEmpty(Mono.error(new AssertionError("the session ended without a message")))
                .block(Duration.ofSeconds(10));
    }

    /** Logs {@code alice} in by form and returns the {@code Cookie} value of her session. */
    private String logIn() throws Exception {
        String form = "username=alice&password="
                + URLEncoder.encode(ContextTestApplication.PASSWORD, StandardCharsets.UTF_8);
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<Void> response = client.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + "/login"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form))
                    .timeout(Duration.ofSeconds(10))
                    .build(), HttpResponse.BodyHandlers.discarding());
            assertThat(response.statusCode()).as("logged in and redirected").isEqualTo(302);
            assertThat(response.headers().firstValue("Location")).hasValue("/");
            String session = response.headers().allValues("Set-Cookie").stream()
                    .filter(c -> c.startsWith("SESSION="))
                    .reduce((a, b) -> b)
                    .orElseThrow(() -> new AssertionError("no session cookie: " + response.headers()));
            return session.substring(0, session.indexOf(';'));
        }
    }

    @Test
    void exchangeOfTheContextFilterReachesTheHandlerOfTheJdkClient() throws Exception {
        assertThat(firstMessageFromJdkClient("/context/exchange", Map.of("X-Marker", "jdk")))
                .isEqualTo("path=/context/exchange marker=jdk");
    }

    @Test
    void exchangeOfTheContextFilterReachesTheHandlerOfReactorNetty() {
        assertThat(firstMessageFromReactorNetty("/context/exchange", Map.of("X-Marker", "netty")))
                .isEqualTo("path=/context/exchange marker=netty");
    }

    @Test
    void securityContextOfTheLoggedInSessionReachesTheHandlerOfTheJdkClient() throws Exception {
        String cookie = logIn();

        assertThat(firstMessageFromJdkClient("/secure/whoami", Map.of("Cookie", cookie))).isEqualTo("alice");
    }

    @Test
    void securityContextOfTheLoggedInSessionReachesTheHandlerOfReactorNetty() throws Exception {
        String cookie = logIn();

        assertThat(firstMessageFromReactorNetty("/secure/whoami", Map.of("Cookie", cookie))).isEqualTo("alice");
    }

    @Test
    void upgradeWithoutALoggedInSessionIsRefused() {
        assertThatThrownBy(() -> firstMessageFromJdkClient("/secure/whoami", Map.of()))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOfSatisfying(WebSocketHandshakeException.class,
                        e -> assertThat(e.getResponse().statusCode()).isEqualTo(401));
    }
}
