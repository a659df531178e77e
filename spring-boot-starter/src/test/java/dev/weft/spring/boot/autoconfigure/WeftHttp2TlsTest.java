package dev.weft.spring.boot.autoconfigure;

import dev.weft.httpserver.Weft;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.spring.boot.Curl;
import dev.weft.spring.boot.TestCertificates;
import dev.weft.spring.boot.WeftWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WebFlux application with {@code server.http2.enabled=true} and an SSL bundle: clients that offer {@code h2}
 * by ALPN (the JDK's {@link HttpClient}, curl) get HTTP/2, for small, streamed and uploaded bodies.
 */
@SpringBootTest(classes = WeftTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "server.http2.enabled=true",
        "server.ssl.bundle=weft",
        "spring.ssl.bundle.jks.weft.keystore.type=PKCS12",
        "spring.ssl.bundle.jks.weft.keystore.password=" + TestCertificates.PASSWORD })
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftHttp2TlsTest {

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

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_2)
            .connectTimeout(Duration.ofSeconds(5))
            .sslContext(certificates.clientContext(false))
            .build();

    @AfterEach
    void closeClient() {
        client.close();
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("https://localhost:" + port + path))
                .timeout(Duration.ofSeconds(60));
    }

    @Test
    void jsonIsServedOverH2() throws Exception {
        HttpResponse<String> response = client.send(request("/greeting?name=h2").build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(response.body()).isEqualTo("{\"message\":\"Hello, h2\"}");
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
    }

    @Test
    void theHandlerSeesHttp2() throws Exception {
        HttpResponse<String> response = client.send(request("/protocol").build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(response.body()).isEqualTo("HTTP/2.0");
    }

    @Test
    void fiveMegabyteStreamedBodyArrivesWhole() throws Exception {
        HttpResponse<byte[]> response = client.send(request("/stream").build(),
                HttpResponse.BodyHandlers.ofByteArray());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        byte[] expected = WeftTestApplication.streamBody();
        assertThat(response.body().length).isEqualTo(expected.length);
        assertThat(Arrays.mismatch(response.body(), expected)).as("first differing byte").isEqualTo(-1);
    }

    @Test
    void twoMegabytePostIsEchoed() throws Exception {
        byte[] payload = new byte[2 * 1024 * 1024 + 3];
        new Random(4).nextBytes(payload);

        HttpResponse<byte[]> response = client.send(request("/echo")
                        .header("Content-Type", "application/octet-stream")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(payload))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(response.body().length).isEqualTo(payload.length);
        assertThat(Arrays.mismatch(response.body(), payload)).as("first differing byte").isEqualTo(-1);
    }

    @Test
    void concurrentRequestsAreMultiplexedOnOneConnection() throws Exception {
        // One request first, so the client has its HTTP/2 connection before the others go out together.
        assertThat(client.send(request("/greeting").build(), HttpResponse.BodyHandlers.ofString()).version())
                .isEqualTo(HttpClient.Version.HTTP_2);
        StatsSnapshot.Http2 before = stats().http2();

        List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            responses.add(client.sendAsync(request("/greeting?name=" + i).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> response = responses.get(i).get();
            assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(response.body()).isEqualTo("{\"message\":\"Hello, " + i + "\"}");
        }

        StatsSnapshot.Http2 after = stats().http2();
        assertThat(after.connections()).as("HTTP/2 connections opened").isEqualTo(before.connections());
        assertThat(after.streamsOpened() - before.streamsOpened()).as("streams opened").isEqualTo(20);
    }

    @Test
    void curlNegotiatesH2ByAlpn() throws Exception {
        Curl.Result result = Curl.run("-k", "--http2", "-w", "\n%{http_version}",
                "https://localhost:" + port + "/protocol");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.text()).isEqualTo("HTTP/2.0\n2");
    }

    @Test
    void http11ClientsAreStillServed() throws Exception {
        HttpResponse<String> response;
        try (HttpClient http11 = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .sslContext(certificates.clientContext(false))
                .build()) {
            response = http11.send(request("/protocol").build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.US_ASCII));
        }

        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(response.body()).isEqualTo("HTTP/1.1");
    }

    private StatsSnapshot stats() {
        WeftWebServer webServer = (WeftWebServer) context.getWebServer();
        return Weft.stats(webServer.getServer());
    }
}
