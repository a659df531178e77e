package dev.weft.spring.boot.autoconfigure;

import dev.weft.spring.boot.Curl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WebFlux application with {@code server.http2.enabled=true} on cleartext: curl with
 * {@code --http2-prior-knowledge} gets HTTP/2 (h2c), for small, streamed and uploaded bodies, while HTTP/1.1
 * clients on the same port are still served.
 */
@SpringBootTest(classes = WeftTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = "server.http2.enabled=true")
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftHttp2CleartextTest {

    @LocalServerPort
    int port;

    @TempDir
    Path dir;

    private String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    @Test
    void priorKnowledgeGetsTheBody() throws Exception {
        byte[] body = Curl.ok("--http2-prior-knowledge", url("/greeting?name=h2c"));

        assertThat(new String(body)).isEqualTo("{\"message\":\"Hello, h2c\"}");
    }

    @Test
    void priorKnowledgeIsAnsweredInHttp2() throws Exception {
        byte[] version = Curl.ok("--http2-prior-knowledge", "-o", "/dev/null", "-w", "%{http_version}",
                url("/greeting"));

        assertThat(new String(version)).isEqualTo("2");
    }

    @Test
    void theHandlerSeesHttp2() throws Exception {
        assertThat(new String(Curl.ok("--http2-prior-knowledge", url("/protocol")))).isEqualTo("HTTP/2.0");
    }

    @Test
    void fiveMegabyteStreamedBodyArrivesWhole() throws Exception {
        Path out = dir.resolve("stream.bin");

        byte[] version = Curl.ok("--http2-prior-knowledge", "-o", out.toString(), "-w", "%{http_version}",
                url("/stream"));

        assertThat(new String(version)).isEqualTo("2");
        byte[] expected = WeftTestApplication.streamBody();
        byte[] body = Files.readAllBytes(out);
        assertThat(body.length).isEqualTo(expected.length);
        assertThat(Arrays.mismatch(body, expected)).as("first differing byte").isEqualTo(-1);
    }

    @Test
    void twoMegabytePostIsEchoed() throws Exception {
        byte[] payload = new byte[2 * 1024 * 1024 + 5];
        new Random(5).nextBytes(payload);
        Path in = Files.write(dir.resolve("upload.bin"), payload);
        Path out = dir.resolve("echo.bin");

        byte[] version = Curl.ok("--http2-prior-knowledge", "-H", "Content-Type: application/octet-stream",
                "--data-binary", "@" + in, "-o", out.toString(), "-w", "%{http_version}", url("/echo"));

        assertThat(new String(version)).isEqualTo("2");
        byte[] body = Files.readAllBytes(out);
        assertThat(body.length).isEqualTo(payload.length);
        assertThat(Arrays.mismatch(body, payload)).as("first differing byte").isEqualTo(-1);
    }

    @Test
    void http11ClientsOnTheSamePortAreStillServed() throws Exception {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url("/protocol")))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
            assertThat(response.body()).isEqualTo("HTTP/1.1");
        }
    }

    @Test
    void anUpgradeToH2cIsAnsweredAllTheSame() throws Exception {
        // The JDK client asks for HTTP/2 on cleartext with "Upgrade: h2c" (RFC 7540; dropped by RFC 9113).
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build()) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url("/greeting")))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("{\"message\":\"Hello, world\"}");
        }
    }
}
