package dev.weft.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.micronaut.app.SampleFiles;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * {@code SystemFile} and {@code StreamedFile} responses of several MiB: sent whole, with their length when it is
 * known and chunked when it is not, as attachments where the route says so; {@code HEAD} answered as on Netty.
 * (Small files are compared with Netty's answers in {@code WeftAnswersAsNettyDoesTest}.)
 */
@MicronautTest
class WeftServesFilesTest {

    @Inject
    EmbeddedServer server;

    @Inject
    @Client("/")
    HttpClient client;

    @Inject
    SampleFiles files;

    private HttpResponse<InputStream> get(java.net.http.HttpClient jdk, String path) throws Exception {
        return jdk.send(java.net.http.HttpRequest.newBuilder(server.getURI().resolve(path)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
    }

    /** Reads {@code in} to its end, checking each byte against the sample's pattern; the count read. */
    private static long readPattern(InputStream in) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        long position = 0;
        for (int n; (n = in.read(buffer)) > 0; ) {
            for (int i = 0; i < n; i++, position++) {
                if (buffer[i] != SampleFiles.byteAt(position)) {
                    throw new AssertionError("byte " + position + " differs");
                }
            }
        }
        return position;
    }

    @Test
    void aSystemFileOfSeveralMiBIsSentWholeWithItsLength() throws Exception {
        try (java.net.http.HttpClient jdk = java.net.http.HttpClient.newHttpClient()) {
            HttpResponse<InputStream> response = get(jdk, "/files/big");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
            assertThat(response.headers().firstValueAsLong("Content-Length")).hasValue(SampleFiles.BIG_SIZE);
            assertThat(response.headers().firstValue("Content-Disposition")).isEmpty();
            try (InputStream body = response.body()) {
                assertThat(readPattern(body)).isEqualTo(SampleFiles.BIG_SIZE);
            }
        }
    }

    @Test
    void aStreamedFileOfUnknownLengthIsSentChunkedAsAnAttachment() throws Exception {
        try (java.net.http.HttpClient jdk = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<InputStream> response = get(jdk, "/files/generated");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
            assertThat(response.headers().firstValue("Content-Length")).isEmpty();
            assertThat(response.headers().firstValue("Transfer-Encoding")).hasValue("chunked");
            assertThat(response.headers().firstValue("Content-Disposition")).hasValueSatisfying(disposition ->
                    assertThat(disposition).startsWith("attachment").contains("filename=\"generated.bin\""));
            try (InputStream body = response.body()) {
                assertThat(readPattern(body)).isEqualTo(SampleFiles.BIG_SIZE);
            }
        }
    }

    /** Four clients at once, each reading the large file and the generated stream: every byte in its place. */
    @Test
    void clientsDownloadingAtOnceEachGetEveryByteInOrder() throws Exception {
        try (java.net.http.HttpClient jdk = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1).build();
             ExecutorService downloads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Long>> counts = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String path = i % 2 == 0 ? "/files/big" : "/files/generated";
                counts.add(downloads.submit(() -> {
                    try (InputStream body = get(jdk, path).body()) {
                        return readPattern(body);
                    }
                }));
            }
            for (Future<Long> count : counts) {
                assertThat(count.get(60, TimeUnit.SECONDS)).isEqualTo(SampleFiles.BIG_SIZE);
            }
        }
    }

    @Test
    void micronautsClientDownloadsTheLargeFile() {
        io.micronaut.http.HttpResponse<byte[]> response = client.toBlocking()
                .exchange(HttpRequest.GET("/files/big"), byte[].class);
        byte[] body = response.body();
        assertThat(body).hasSize(SampleFiles.BIG_SIZE);
        assertThat(body[SampleFiles.BIG_SIZE - 1]).isEqualTo(SampleFiles.byteAt(SampleFiles.BIG_SIZE - 1));
    }

    @Test
    void curlSavesTheAttachmentUnderItsName() throws Exception {
        Path dir = Files.createTempDirectory("weft-download");
        try {
            Curl curl = Curl.run("-O", "-J", "--output-dir", dir.toString(), "-D", "-",
                    server.getURI().resolve("/files/report").toString());
            assertThat(curl.exitCode()).isZero();
            assertThat(curl.output()).startsWith("HTTP/1.1 200")
                    .containsIgnoringCase("content-type: text/csv\r\n")
                    .containsIgnoringCase("content-length: " + Files.size(files.report()) + "\r\n")
                    .containsIgnoringCase("content-disposition: attachment; filename=\"monthly.csv\"");
            assertThat(dir.resolve("monthly.csv")).hasSameBinaryContentAs(files.report());
        } finally {
            try (var paths = Files.walk(dir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** As Micronaut's Netty server does, a {@code HEAD} to a file route is answered with its status alone. */
    @Test
    void curlHeadForTheLargeFileGetsTheStatusAndNoBody() throws Exception {
        Curl curl = Curl.run("-I", server.getURI().resolve("/files/big").toString());
        assertThat(curl.exitCode()).isZero();
        assertThat(curl.output()).startsWith("HTTP/1.1 200").endsWith("\r\n\r\n");
    }
}
