package dev.weft.micronaut;

import dev.weft.httpserver.testing.TestCertificates;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code micronaut.server.ssl.*} with a PKCS#12 key store generated for the test (a CA and a {@code localhost}
 * certificate): the server speaks TLS, offers h2 by ALPN with {@code http-version: 2.0}, and serves WebSockets
 * over TLS too.
 */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WeftServesTlsFromMicronautSslSettingsTest implements TestPropertyProvider {

    @Inject
    EmbeddedServer server;

    @Override
    public Map<String, String> getProperties() {
        Map<String, String> properties = TlsTestProperties.keyStore("micronaut.server.ssl");
        properties.put("micronaut.server.http-version", "2.0");
        return properties;
    }

    private URI https(String path) {
        return URI.create("https://localhost:" + server.getPort() + path);
    }

    @Test
    void curlOverTlsIsOfferedHttp2ByAlpn() throws Exception {
        Process curl = new ProcessBuilder("curl", "-s", "-k", "--http2", "-w", "\n%{http_version}",
                https("/sample/hello").toString()).redirectErrorStream(true).start();
        String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(curl.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(out).isEqualTo("Hello from Weft\n2");
    }

    @Test
    void jdkHttpClientTrustingTheTestCaGetsTheAnswerOverTls() throws Exception {
        assertThat(server.getScheme()).isEqualTo("https");
        try (HttpClient client = HttpClient.newBuilder().sslContext(TestCertificates.get().clientContext())
                .version(HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(https("/sample/hello")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("Hello from Weft");
            assertThat(response.sslSession()).isPresent();
        }
    }

    @Test
    void aServerWebSocketOpensOverTls() throws Exception {
        try (HttpClient client = HttpClient.newBuilder().sslContext(TestCertificates.get().clientContext()).build()) {
            JdkWebSocketClient ws = new JdkWebSocketClient(client,
                    URI.create("wss://localhost:" + server.getPort() + "/echo/secure"));
            assertThat(ws.next()).isEqualTo("joined secure");
            ws.socket.sendText("hi", true).join();
            assertThat(ws.next()).isEqualTo("secure:hi");
            ws.socket.sendClose(1000, "").join();
            ws.awaitClose();
        }
    }
}
