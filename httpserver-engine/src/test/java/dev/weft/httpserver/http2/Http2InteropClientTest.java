package dev.weft.httpserver.http2;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Third-party HTTP/2 clients interoperate with Weft: curl (ALPN h2 over TLS, prior knowledge on cleartext),
 * nghttp, h2load and the JDK's HttpClient, including 20 MB bodies both ways under flow control and 1,000
 * requests multiplexed 100 at a time on one connection.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class Http2InteropClientTest {

    private static final long LARGE = 20L * 1024 * 1024;

    private static Http2TestServers servers;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void start() throws IOException {
        servers = Http2TestServers.start(ServerConfig.defaults(), Http2TestRoutes.all());
    }

    @AfterAll
    static void stop() {
        if (servers != null) {
            servers.close();
        }
    }

    /** A file holding {@code size} bytes of the pattern. */
    private static Path patternFile(long size) throws IOException {
        Path f = tmp.resolve("pattern-" + size + ".bin");
        if (!Files.exists(f)) {
            try (OutputStream out = Files.newOutputStream(f)) {
                Http2TestRoutes.writePattern(out, size);
            }
        }
        return f;
    }

    private static String digestOf(Path file) throws IOException {
        return Http2TestRoutes.lengthAndDigest(Files.newInputStream(file));
    }

    // ---- curl ----

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void curlGetsHttp2(boolean tls) {
        Http2Cli.Curl r = Http2Cli.curl(tls, servers.url(tls, "/echo?a=1&b=x%20y"));
        assertEquals(0, r.exit(), r::toString);
        assertEquals("2", r.httpVersion(), () -> "curl's %{http_version}: " + r);
        assertEquals(200, r.status(), r::toString);
        assertTrue(r.body().contains("protocol: HTTP/2.0\n"), r::toString);
        assertTrue(r.body().contains("uri: /echo?a=1&b=x%20y\n"), r::toString);
        assertTrue(r.body().contains("method: GET\n"), r::toString);
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void curlDownloadsTwentyMegabytes(boolean tls) throws IOException {
        Path out = tmp.resolve("download-" + tls + ".bin");
        Http2Cli.Curl r = Http2Cli.curl(tls, servers.url(tls, "/download?size=" + LARGE), "-o", out.toString());
        assertEquals(0, r.exit(), r::toString);
        assertEquals("2", r.httpVersion(), r::toString);
        assertEquals(200, r.status(), r::toString);
        assertEquals(Http2TestRoutes.patternDigest(LARGE), digestOf(out));
        Files.delete(out);
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void curlUploadsTwentyMegabytes(boolean tls) throws IOException {
        Path file = patternFile(LARGE);
        Http2Cli.Curl r = Http2Cli.curl(tls, servers.url(tls, "/sha256"), "--data-binary", "@" + file,
                "-H", "Content-Type: application/octet-stream");
        assertEquals(0, r.exit(), r::toString);
        assertEquals("2", r.httpVersion(), r::toString);
        assertEquals(200, r.status(), r::toString);
        assertEquals(Http2TestRoutes.patternDigest(LARGE), r.body());
    }

    // ---- nghttp ----

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void nghttpGets(boolean tls) {
        ExternalTools.Result r = Http2Cli.nghttp(servers.url(tls, "/echo?tool=nghttp"), "-v");
        assertEquals(0, r.exit(), r::describe);
        String out = r.stdout();
        assertTrue(java.util.regex.Pattern.compile("recv \\(stream_id=\\d+\\) :status: 200").matcher(out).find(),
                r::describe);
        assertTrue(out.contains("protocol: HTTP/2.0"), r::describe);
        assertTrue(out.contains("uri: /echo?tool=nghttp"), r::describe);
        assertTrue(out.contains("; END_STREAM"), r::describe);
        assertTrue(!out.contains("RST_STREAM") && !out.contains("recv GOAWAY"), r::describe);
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void nghttpUploads(boolean tls) throws IOException {
        long size = 3L * 1024 * 1024 + 17;
        ExternalTools.Result r = Http2Cli.nghttp(servers.url(tls, "/sha256"), "-d", patternFile(size).toString());
        assertEquals(0, r.exit(), r::describe);
        assertEquals(Http2TestRoutes.patternDigest(size), r.stdout(), r::describe);
    }

    // ---- h2load: many streams on one connection ----

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void h2loadMultiplexesAThousandRequestsOnOneConnection(boolean tls) {
        ExternalTools.Result r = Http2Cli.h2load(servers.url(tls, "/echo?load=1"), "-n", "1000", "-c", "1", "-m", "100");
        assertEquals(0, r.exit(), r::describe);
        String out = r.stdout();
        assertTrue(out.contains("Application protocol: " + (tls ? "h2" : "h2c")), r::describe);
        assertTrue(out.contains("requests: 1000 total, 1000 started, 1000 done, 1000 succeeded, 0 failed, 0 errored"),
                r::describe);
        assertTrue(out.contains("status codes: 1000 2xx, 0 3xx, 0 4xx, 0 5xx"), r::describe);
    }

    // ---- the JDK's HttpClient ----

    private static HttpClient jdkClient() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .sslContext(TestCertificates.get().clientContext()).connectTimeout(Duration.ofSeconds(5)).build();
    }

    @Test
    void jdkHttpClientNegotiatesHttp2OverTls() throws Exception {
        try (HttpClient client = jdkClient()) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(servers.url(true, "/echo?jdk=1")))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, r.version());
            assertEquals(200, r.statusCode());
            assertTrue(r.body().contains("protocol: HTTP/2.0\n"), r.body());
            assertTrue(r.body().contains("uri: /echo?jdk=1\n"), r.body());

            // 50 at once: multiplexed on the client's one connection
            List<CompletableFuture<HttpResponse<String>>> many = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                many.add(client.sendAsync(HttpRequest.newBuilder(URI.create(servers.url(true, "/echo?i=" + i)))
                        .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString()));
            }
            for (int i = 0; i < many.size(); i++) {
                HttpResponse<String> each = many.get(i).get(30, TimeUnit.SECONDS);
                assertEquals(HttpClient.Version.HTTP_2, each.version());
                assertEquals(200, each.statusCode());
                assertTrue(each.body().contains("uri: /echo?i=" + i + "\n"), each.body());
            }
        }
    }

    @Test
    void jdkHttpClientMovesTwentyMegabytesBothWaysOverTls() throws Exception {
        try (HttpClient client = jdkClient()) {
            HttpResponse<String> up = client.send(HttpRequest.newBuilder(URI.create(servers.url(true, "/sha256")))
                            .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofFile(patternFile(LARGE)))
                            .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, up.version());
            assertEquals(200, up.statusCode());
            assertEquals(Http2TestRoutes.patternDigest(LARGE), up.body());

            HttpResponse<InputStream> down = client.send(HttpRequest.newBuilder(
                            URI.create(servers.url(true, "/download?size=" + LARGE))).timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            assertEquals(HttpClient.Version.HTTP_2, down.version());
            assertEquals(200, down.statusCode());
            assertEquals(String.valueOf(LARGE), down.headers().firstValue("content-length").orElse("none"));
            assertEquals(Http2TestRoutes.patternDigest(LARGE), Http2TestRoutes.lengthAndDigest(down.body()));
        }
    }

    /**
     * A handler sends the headers and returns; once its thread has ended, another thread writes 3 MB and closes
     * the exchange. The exchange ends when it is closed, not when handle() returns: the whole body arrives.
     */
    @Test
    void jdkHttpClientGetsABodyFinishedAfterTheHandlerReturned() throws Exception {
        long size = 3L * 1024 * 1024 + 5;
        try (HttpClient client = jdkClient()) {
            HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(
                            URI.create(servers.url(true, "/finish-later?size=" + size))).timeout(Duration.ofSeconds(60))
                    .build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(HttpClient.Version.HTTP_2, r.version());
            assertEquals(200, r.statusCode());
            assertEquals(Http2TestRoutes.patternDigest(size),
                    Http2TestRoutes.lengthAndDigest(new ByteArrayInputStream(r.body())));
        }
    }
}
