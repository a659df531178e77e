package dev.weft.spring.boot.websocket;

import dev.weft.httpserver.Weft;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.spring.boot.TestCertificates;
import dev.weft.spring.boot.WeftWebServer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The echo {@code WebSocketHandler} over TLS with an SSL bundle and {@code server.http2.enabled=true}: over
 * HTTP/1.1 ({@code wss:} with Python {@code websockets}) and over HTTP/2 negotiated by ALPN (RFC 8441 with
 * Python {@code h2} + {@code wsproto}).
 */
@SpringBootTest(classes = WebSocketTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "server.http2.enabled=true",
        "server.ssl.bundle=weft",
        "spring.ssl.bundle.jks.weft.keystore.type=PKCS12",
        "spring.ssl.bundle.jks.weft.keystore.password=" + TestCertificates.PASSWORD })
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WebFluxWebSocketTlsTest {

    private static final TestCertificates certificates = TestCertificates.shared();

    @DynamicPropertySource
    static void keyStore(DynamicPropertyRegistry registry) {
        registry.add("spring.ssl.bundle.jks.weft.keystore.location",
                () -> certificates.serverKeyStore.toUri().toString());
    }

    @LocalServerPort
    int port;

    @Autowired
    ReactiveWebServerApplicationContext context;

    @ParameterizedTest(name = "http2={0}")
    @ValueSource(booleans = { false, true })
    void echoOverTls(boolean http2) throws Exception {
        long overHttp2Before = stats().sessionsOverHttp2();

        JsonNode report = PythonWebSocketClient.run("wss://localhost:" + port + "/echo", http2, List.of("chat"), """
                [{"text": "secure hello"}, {"binary": 200000}, {"receive": 2}, {"close": [1000, ""]}]""");

        assertThat(report.path("http_version").asString()).isEqualTo(http2 ? "HTTP/2" : "HTTP/1.1");
        assertThat(report.path("subprotocol").asString()).isEqualTo("chat");
        assertThat(report.path("received").get(0).asString()).isEqualTo("secure hello");
        assertThat(report.path("received").get(1).path("binary").asInt()).isEqualTo(200000);
        assertThat(report.path("received").get(1).path("ok").asBoolean()).isTrue();
        assertThat(report.path("close_code").asInt()).isEqualTo(1000);
        assertThat(stats().sessionsOverHttp2() - overHttp2Before).isEqualTo(http2 ? 1 : 0);
    }

    private StatsSnapshot.WebSocket stats() {
        return Weft.stats(((WeftWebServer) context.getWebServer()).getServer()).webSocket();
    }
}
