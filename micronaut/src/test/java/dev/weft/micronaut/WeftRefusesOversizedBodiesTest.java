package dev.weft.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A body over {@code micronaut.server.max-request-size} (16 KiB in the tests) is answered {@code 413} with
 * Micronaut's error body also when it is chunked, so that its length shows only while it is read.
 */
@MicronautTest
class WeftRefusesOversizedBodiesTest {

    @Inject
    EmbeddedServer server;

    @Test
    void aChunkedBodyOverMaxRequestSizeIs413() throws Exception {
        byte[] body = "y".repeat(40_000).getBytes(StandardCharsets.US_ASCII);
        HttpRequest request = HttpRequest.newBuilder(server.getURI().resolve("/sample/text"))
                .header("Content-Type", "text/plain")
                // no length: the JDK client sends it chunked
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
                .build();
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(413);
            assertThat(response.body()).contains("Request Entity Too Large")
                    .contains("exceeds the maximum allowed content length [16384]");
        }
    }

    @Test
    void curlUploadingAFileOverMaxRequestSizeGets413() throws Exception {
        Path file = Files.createTempFile("weft-upload", ".bin");
        try {
            Files.write(file, new byte[40_000]);
            Process curl = new ProcessBuilder("curl", "-s", "-o", "-", "-w", "\n%{http_code}",
                    "-F", "note=big", "-F", "file=@" + file + ";type=application/octet-stream",
                    server.getURI().resolve("/sample/upload").toString())
                    .redirectErrorStream(true).start();
            String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(curl.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(out).endsWith("\n413").contains("Request Entity Too Large");
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
