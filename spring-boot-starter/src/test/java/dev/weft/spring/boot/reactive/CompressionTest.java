package dev.weft.spring.boot.reactive;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.web.server.Compression;
import org.springframework.http.MediaType;
import org.springframework.util.unit.DataSize;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code server.compression.*} applied by the adapter, checked with {@code curl --compressed -v}. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CompressionTest {

    private static final String BIG_JSON = "{\"items\":[" + "\"compressible\",".repeat(300) + "\"end\"]}";
    private static final String SMALL_JSON = "{\"small\":true}";
    private static final String CURL = "/usr/bin/curl";

    private static AdapterServer server;

    @BeforeAll
    static void start() {
        Compression compression = new Compression();
        compression.setEnabled(true);
        compression.setMinResponseSize(DataSize.ofBytes(1024));
        compression.setExcludedUserAgents(new String[] {"LegacyBot/1.0"});
        var routes = RouterFunctions.route()
                .GET("/big-json", r -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(BIG_JSON))
                .GET("/small-json", r -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(SMALL_JSON))
                .GET("/big-png", r -> ServerResponse.ok().contentType(MediaType.IMAGE_PNG)
                        .bodyValue(BIG_JSON.getBytes(StandardCharsets.UTF_8)))
                .GET("/stream", r -> ServerResponse.ok().contentType(MediaType.TEXT_PLAIN)
                        .body(Flux.just("a", "b", "c"), String.class))
                .build();
        server = AdapterServer.start(RouterFunctions.toHttpHandler(routes), WeftCompression.from(compression));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void largeJsonIsGzippedWithVaryAndWithoutLength() throws Exception {
        Curl curl = curl("/big-json", "--compressed");

        assertThat(curl.body).isEqualTo(BIG_JSON);
        assertThat(curl.header("content-encoding")).isEqualTo("gzip");
        assertThat(curl.header("vary")).isEqualTo("Accept-Encoding");
        assertThat(curl.header("content-length")).isNull();
        assertThat(curl.header("content-type")).isEqualTo("application/json");
    }

    @Test
    void jsonBelowTheMinimumSizeIsSentAsIs() throws Exception {
        Curl curl = curl("/small-json", "--compressed");

        assertThat(curl.body).isEqualTo(SMALL_JSON);
        assertThat(curl.header("content-encoding")).isNull();
        assertThat(curl.header("content-length")).isEqualTo(Integer.toString(SMALL_JSON.length()));
    }

    @Test
    void typesNotListedAreSentAsIs() throws Exception {
        Curl curl = curl("/big-png", "--compressed");

        assertThat(curl.header("content-encoding")).isNull();
        assertThat(curl.header("content-length")).isEqualTo(Integer.toString(BIG_JSON.length()));
    }

    @Test
    void streamedBodyOfUnknownLengthIsGzippedWhenTheTypeMatches() throws Exception {
        Curl curl = curl("/stream", "--compressed");

        assertThat(curl.body).isEqualTo("abc");
        assertThat(curl.header("content-encoding")).isEqualTo("gzip");
        assertThat(curl.header("transfer-encoding")).isEqualTo("chunked");
    }

    @Test
    void clientsThatDoNotAcceptGzipOrAreExcludedGetPlainBodies() throws Exception {
        Curl plain = curl("/big-json");
        Curl excluded = curl("/big-json", "--compressed", "-A", "LegacyBot/1.0");
        Curl refused = curl("/big-json", "-H", "Accept-Encoding: gzip;q=0, identity");

        for (Curl curl : List.of(plain, excluded, refused)) {
            assertThat(curl.body).isEqualTo(BIG_JSON);
            assertThat(curl.header("content-encoding")).isNull();
            assertThat(curl.header("content-length")).isEqualTo(Integer.toString(BIG_JSON.length()));
        }
    }

    @Test
    void headIsNeverCompressed() throws Exception {
        Curl curl = curl("/big-json", "--compressed", "-I");

        assertThat(curl.header("content-encoding")).isNull();
    }

    private static Curl curl(String path, String... options) throws IOException, InterruptedException {
        org.junit.jupiter.api.Assertions.assertTrue(Files.isExecutable(Path.of(CURL)), "curl is required (scripts/install-test-tools.sh installs it)");
        List<String> command = new ArrayList<>(List.of(CURL, "-sS", "-v", "--max-time", "10"));
        command.addAll(List.of(options));
        command.add(server.uri(path).toString());
        Path out = Files.createTempFile("curl", ".out");
        Path err = Files.createTempFile("curl", ".err");
        try {
            Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .start();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("curl timed out");
            }
            String stderr = Files.readString(err, StandardCharsets.ISO_8859_1);
            assertThat(process.exitValue()).as(stderr).isZero();
            return new Curl(Files.readString(out, StandardCharsets.UTF_8), stderr);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** A curl run: the (decoded) body, and the response header lines from {@code -v} ("< name: value"). */
    private record Curl(String body, String verbose) {
        String header(String name) {
            for (String line : verbose.split("\r?\n")) {
                if (line.startsWith("< ") && line.regionMatches(true, 2, name + ":", 0, name.length() + 1)) {
                    return line.substring(2 + name.length() + 1).strip();
                }
            }
            return null;
        }
    }
}
