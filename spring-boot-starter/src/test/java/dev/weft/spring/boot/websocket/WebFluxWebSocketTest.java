package dev.weft.spring.boot.websocket;

import dev.weft.httpserver.Weft;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.spring.boot.WeftWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.web.reactive.socket.CloseStatus;
import tools.jackson.databind.JsonNode;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * WebFlux {@code WebSocketHandler}s on Weft with no WebSocket configuration but a handler mapping, over
 * HTTP/1.1 (Python {@code websockets}, the JDK's {@code HttpClient}) and over HTTP/2 cleartext with prior
 * knowledge (RFC 8441 by Python {@code h2} + {@code wsproto}) on the same port.
 */
@SpringBootTest(classes = WebSocketTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "server.http2.enabled=true",
        "weft.server.websocket.max-message-size=64KB",
        "weft.server.websocket.compression=false" })
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WebFluxWebSocketTest {

    private static final int LIMIT = 64 * 1024;

    @LocalServerPort
    int port;

    @Autowired
    ReactiveWebServerApplicationContext context;

    private String url(String path) {
        return "ws://127.0.0.1:" + port + path;
    }

    private JsonNode run(boolean http2, String path, String steps) throws Exception {
        return PythonWebSocketClient.run(url(path), http2, List.of(), steps);
    }

    private StatsSnapshot.WebSocket stats() {
        return Weft.stats(((WeftWebServer) context.getWebServer()).getServer()).webSocket();
    }

    @ParameterizedTest(name = "http2={0}")
    @ValueSource(booleans = { false, true })
    void echoHandlerEchoesTextAndBinary(boolean http2) throws Exception {
        JsonNode report = run(http2, "/echo", """
                [{"text": "hello"}, {"binary": 1000}, {"text": "grüße ✓"}, {"receive": 3},
                 {"close": [1000, "done"]}]""");

        assertThat(report.path("http_version").asString()).isEqualTo(http2 ? "HTTP/2" : "HTTP/1.1");
        assertThat(report.path("received").get(0).asString()).isEqualTo("hello");
        assertThat(report.path("received").get(1).path("binary").asInt()).isEqualTo(1000);
        assertThat(report.path("received").get(1).path("ok").asBoolean()).isTrue();
        assertThat(report.path("received").get(2).asString()).isEqualTo("grüße ✓");
        assertThat(report.path("close_code").asInt()).as("the server answers our close").isEqualTo(1000);
    }

    @ParameterizedTest(name = "http2={0}")
    @ValueSource(booleans = { false, true })
    void theHandlerSeesTheProtocolAndHandshakeInfo(boolean http2) throws Exception {
        StatsSnapshot.WebSocket before = stats();

        JsonNode report = run(http2, "/info", """
                [{"receive": 1}, {"await_close": true}]""");

        assertThat(report.path("received").get(0).asString()).isEqualTo("version="
                + (http2 ? "HTTP/2.0" : "HTTP/1.1") + " subprotocol=null path=/info remote=true weft=true");
        assertThat(report.path("close_code").asInt()).as("handler completed: 1000").isEqualTo(1000);
        StatsSnapshot.WebSocket after = stats();
        assertThat(after.sessionsOpened() - before.sessionsOpened()).isEqualTo(1);
        assertThat(after.sessionsOverHttp2() - before.sessionsOverHttp2()).isEqualTo(http2 ? 1 : 0);
    }

    @ParameterizedTest(name = "http2={0}")
    @ValueSource(booleans = { false, true })
    void subprotocolIsNegotiatedThroughWebFlux(boolean http2) throws Exception {
        JsonNode chat = PythonWebSocketClient.run(url("/echo"), http2, List.of("superchat"), """
                [{"text": "x"}, {"receive": 1}, {"close": [1000, ""]}]""");
        JsonNode none = PythonWebSocketClient.run(url("/echo"), http2, List.of("unknown"), """
                [{"text": "x"}, {"receive": 1}, {"close": [1000, ""]}]""");

        assertThat(chat.path("subprotocol").asString()).isEqualTo("superchat");
        assertThat(none.path("subprotocol").isNull()).as("no subprotocol the handler speaks").isTrue();
    }

    @ParameterizedTest(name = "http2={0}")
    @ValueSource(booleans = { false, true })
    void closeStatusOfTheHandlerReachesTheClient(boolean http2) throws Exception {
        JsonNode report = run(http2, "/close", """
                [{"text": "4001 handler says bye"}, {"await_close": true}]""");

        assertThat(report.path("close_code").asInt()).isEqualTo(4001);
        assertThat(report.path("close_reason").asString()).isEqualTo("handler says bye");
    }

    @ParameterizedTest(name = "http2={0}")
    @ValueSource(booleans = { false, true })
    void closeStatusOfTheClientReachesTheHandler(boolean http2) throws Exception {
        WebSocketTestApplication.closes.clear();

        run(http2, "/observe", """
                [{"text": "a"}, {"receive": 1}, {"close": [4002, "client says bye"]}]""");

        CloseStatus status = WebSocketTestApplication.closes.poll(10, TimeUnit.SECONDS);
        assertThat(status).isEqualTo(new CloseStatus(4002, "client says bye"));
    }

    @ParameterizedTest(name = "http2={0}")
    @ValueSource(booleans = { false, true })
    void messageAtTheLimitIsEchoedAndOneByteMoreCloses1009(boolean http2) throws Exception {
        long protocolClosesBefore = stats().protocolCloses();

        JsonNode report = run(http2, "/echo", """
                [{"binary": %d}, {"receive": 1}, {"binary": %d}, {"await_close": true}]"""
                .formatted(LIMIT, LIMIT + 1));

        assertThat(report.path("received")).hasSize(1);
        assertThat(report.path("received").get(0).path("binary").asInt()).isEqualTo(LIMIT);
        assertThat(report.path("received").get(0).path("ok").asBoolean()).isTrue();
        assertThat(report.path("close_code").asInt()).isEqualTo(1009);
        assertThat(stats().protocolCloses()).isGreaterThan(protocolClosesBefore);
    }

    @ParameterizedTest(name = "http2={0}")
    @ValueSource(booleans = { false, true })
    void manyMessagesKeepTheirOrderUnderBackPressure(boolean http2) throws Exception {
        StringBuilder steps = new StringBuilder("[");
        for (int i = 0; i < 200; i++) {
            steps.append("{\"binary\": 30000}, ");
        }
        steps.append("{\"receive\": 200}, {\"close\": [1000, \"\"]}]");

        JsonNode report = run(http2, "/echo", steps.toString());

        assertThat(report.path("received")).hasSize(200);
        report.path("received").forEach(m -> assertThat(m.path("ok").asBoolean()).isTrue());
    }

    @Test
    void jdkHttpClientEchoes() throws Exception {
        CompletableFuture<String> reply = new CompletableFuture<>();
        CompletableFuture<Integer> serverClose = new CompletableFuture<>();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try {
            WebSocket ws = client.newWebSocketBuilder()
                    .subprotocols("chat")
                    .buildAsync(URI.create(url("/echo")), new WebSocket.Listener() {
                        @Override
                        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                            reply.complete(data.toString());
                            webSocket.request(1); // so the client reads the server's close frame later
                            return null;
                        }

                        @Override
                        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                            serverClose.complete(statusCode);
                            return null;
                        }
                    }).get(10, TimeUnit.SECONDS);
            ws.sendText("from the JDK", true).get(10, TimeUnit.SECONDS);

            assertThat(reply.get(10, TimeUnit.SECONDS)).isEqualTo("from the JDK");
            assertThat(ws.getSubprotocol()).isEqualTo("chat");
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "").get(10, TimeUnit.SECONDS);
            assertThat(serverClose.get(10, TimeUnit.SECONDS)).as("the server answers the close").isEqualTo(1000);
        } finally {
            // close() alone waits until every WebSocket of the client has closed: after a failure above it
            // would hang, and the timeout would hide the failure.
            client.shutdownNow();
            client.close();
        }
    }

    @Test
    void anOrdinaryGetOnAWebSocketPathIsRefused() throws Exception {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            var response = client.send(java.net.http.HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + "/echo")).timeout(Duration.ofSeconds(10)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(400);
        }
    }
}
