package dev.weft.httpserver.files;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.TestCertificates;
import dev.weft.httpserver.testing.TestFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where a file cannot go to the socket untouched, {@link FileHandler} copies it and the client still gets exactly
 * its bytes: over TLS (the bytes are encrypted on the heap) with HTTP/1.1 and h2, and over cleartext HTTP/2 (h2c,
 * framed into DATA frames). None of it is counted as sent without copying.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FileHandlerCopiesOverTlsAndHttp2Test {

    private static Path root;
    private static TestFile file;
    private static HttpsServer tls;
    private static HttpServer cleartext;

    @BeforeAll
    static void serve() throws IOException {
        root = Files.createTempDirectory("weft-copied-files");
        file = TestFile.create(root, "file.bin", 24L * 1024 * 1024 + 5, 5);
        FileHandler files = FileHandler.builder(root).build();
        tls = Weft.createHttpsServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        tls.setHttpsConfigurator(new HttpsConfigurator(TestCertificates.get().serverContext()));
        tls.createContext("/", files);
        tls.start();
        cleartext = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        cleartext.createContext("/", files);
        cleartext.start();
    }

    @AfterAll
    static void stop() throws IOException {
        tls.stop(0);
        cleartext.stop(0);
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted((x, y) -> y.compareTo(x)).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static HttpClient tlsClient(HttpClient.Version version) {
        return HttpClient.newBuilder().version(version).sslContext(TestCertificates.get().clientContext())
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    private static URI tlsUri(String path) {
        return URI.create("https://127.0.0.1:" + tls.getAddress().getPort() + path);
    }

    private static StatsSnapshot awaitSent(HttpServer server, StatsSnapshot before, long atLeast) {
        return Await.value("the server to count the bytes sent", () -> Weft.stats(server),
                s -> s.bytesSent() - before.bytesSent() >= atLeast && s.exchangesActive() == 0);
    }

    @Test
    void tlsOverHttp1CopiesTheFileAndTheClientGetsItsExactBytes() throws Exception {
        StatsSnapshot before = Weft.stats(tls);
        try (HttpClient client = tlsClient(HttpClient.Version.HTTP_1_1)) {
            HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(tlsUri("/file.bin")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());

            assertEquals(HttpClient.Version.HTTP_1_1, response.version());
            assertEquals(200, response.statusCode());
            assertEquals(String.valueOf(file.size()), response.headers().firstValue("Content-Length").orElseThrow());
            assertEquals(file.sha256(), TestFile.sha256(response.body()));
        }
        StatsSnapshot after = awaitSent(tls, before, file.size());
        assertEquals(0, after.bytesSentZeroCopy(), after::toString);
    }

    @Test
    void tlsOverHttp1CopiesASingleRangeToo() throws Exception {
        long first = 1_000_000;
        long last = 9_999_999;
        try (HttpClient client = tlsClient(HttpClient.Version.HTTP_1_1)) {
            HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(tlsUri("/file.bin"))
                    .header("Range", "bytes=" + first + "-" + last).build(), HttpResponse.BodyHandlers.ofInputStream());

            assertEquals(206, response.statusCode());
            assertEquals(file.sha256(first, last - first + 1), TestFile.sha256(response.body()));
        }
        assertEquals(0, Weft.stats(tls).bytesSentZeroCopy());
    }

    @Test
    void http2OverTlsCopiesTheFileIntoDataFrames() throws Exception {
        StatsSnapshot before = Weft.stats(tls);
        try (HttpClient client = tlsClient(HttpClient.Version.HTTP_2)) {
            HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(tlsUri("/file.bin")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());

            assertEquals(HttpClient.Version.HTTP_2, response.version());
            assertEquals(200, response.statusCode());
            assertEquals(file.sha256(), TestFile.sha256(response.body()));
        }
        StatsSnapshot after = awaitSent(tls, before, file.size());
        assertEquals(0, after.bytesSentZeroCopy(), after::toString);
    }

    @Test
    void cleartextHttp2CopiesTheFileIntoDataFrames() throws Exception {
        Path out = root.resolve("h2c.out");
        StatsSnapshot before = Weft.stats(cleartext);
        List<String> cmd = List.of(ExternalTools.require("curl").toString(), "-s", "--max-time", "60",
                "--http2-prior-knowledge", "-o", out.toString(), "-w", "%{http_version} %{http_code} %{size_download}",
                "http://127.0.0.1:" + cleartext.getAddress().getPort() + "/file.bin");
        ExternalTools.Result r = ExternalTools.run(cmd, Duration.ofSeconds(90));

        assertEquals(0, r.exit(), r.describe());
        assertEquals("2 200 " + file.size(), r.stdout(), r.describe());
        assertEquals(file.sha256(), TestFile.sha256(out));
        StatsSnapshot after = awaitSent(cleartext, before, file.size());
        assertTrue(after.http2().connections() > before.http2().connections(), after::toString);
        assertEquals(0, after.bytesSentZeroCopy(), after::toString);
    }
}
