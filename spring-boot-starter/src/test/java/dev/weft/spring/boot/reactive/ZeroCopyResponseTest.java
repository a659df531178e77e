package dev.weft.spring.boot.reactive;

import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.TestCertificates;
import dev.weft.httpserver.testing.TestFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.core.io.FileSystemResource;
import org.springframework.http.MediaType;
import org.springframework.http.ZeroCopyHttpOutputMessage;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.util.MimeTypeUtils;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link WeftServerHttpResponse} as a {@link ZeroCopyHttpOutputMessage}, over a real Weft server: a handler that
 * writes a file through it, and WebFlux's own {@code ResourceHttpMessageWriter} (a route answering with a file
 * {@code Resource}, whole or one range), send the file's bytes with the type and length set, and on cleartext
 * HTTP/1.1 without copying them through the heap (the engine's {@code bytesSentZeroCopy} grows by the file's
 * size). Over TLS, and when gzipped, the same bytes arrive copied. Checked with the JDK's HttpClient and curl.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ZeroCopyResponseTest {

    private static final long IMAGE_SIZE = 16L * 1024 * 1024 + 7;

    private static Path dir;
    private static Path image;
    private static Path text;
    private static String imageSha256;

    @BeforeAll
    static void files() throws IOException {
        dir = Files.createTempDirectory("weft-webflux-zero-copy");
        TestFile file = TestFile.create(dir, "picture.png", IMAGE_SIZE, 31);
        image = file.path();
        imageSha256 = file.sha256();
        text = dir.resolve("notes.txt");
        Files.writeString(text, "a line of compressible text\n".repeat(100_000));
    }

    @AfterAll
    static void deleteFiles() throws IOException {
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted((x, y) -> y.compareTo(x)).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** As Spring's own zero-copy test does: a plain handler that writes the file through the response. */
    private static HttpHandler zeroCopyHandler(Path file, MediaType type) {
        return (request, response) -> {
            ZeroCopyHttpOutputMessage zeroCopy = (ZeroCopyHttpOutputMessage) response;
            try {
                long length = Files.size(file);
                zeroCopy.getHeaders().setContentType(type);
                zeroCopy.getHeaders().setContentLength(length);
                return zeroCopy.writeWith(file, 0, length);
            } catch (IOException ex) {
                return Mono.error(ex);
            }
        };
    }



    private static StatsSnapshot awaitZeroCopy(AdapterServer server, long before, long fileBytes) {
        // All but a few bytes: where the socket buffer is full the transfer waits by writing one byte as usual.
        return Await.value("the file to be counted as sent without copying", server::stats,
                s -> s.bytesSentZeroCopy() - before >= fileBytes * 99 / 100 && s.exchangesActive() == 0);
    }

    @Test
    void aHandlerWritingAFileThroughZeroCopyHttpOutputMessageSendsItsBytesTypeAndLength() throws Exception {
        try (AdapterServer server = AdapterServer.start(zeroCopyHandler(image, MediaType.IMAGE_PNG));
             HttpClient client = AdapterServer.client()) {
            HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(server.uri("/")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValue("image/png");
            assertThat(response.headers().firstValueAsLong("Content-Length")).hasValue(IMAGE_SIZE);
            assertThat(TestFile.sha256(response.body())).isEqualTo(imageSha256);
            awaitZeroCopy(server, 0, IMAGE_SIZE);
        }
    }

    @Test
    void aRouteAnsweringWithAFileResourceIsSentWithoutCopyingAndCurlGetsItIntact() throws Exception {
        var routes = RouterFunctions.route().GET("/picture", request -> ServerResponse.ok()
                .contentType(MediaType.IMAGE_PNG).body(BodyInserters.fromResource(new FileSystemResource(image))))
                .build();
        Path out = dir.resolve("curl.out");
        try (AdapterServer server = AdapterServer.start(routes)) {
            List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "60", "-o", out.toString(),
                    "-w", "%{http_code} %{content_type} %{size_download}", server.uri("/picture").toString()));
            Process curl = new ProcessBuilder(command).redirectErrorStream(true).start();
            String written = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(curl.waitFor(90, TimeUnit.SECONDS)).isTrue();

            assertThat(curl.exitValue()).as(written).isZero();
            assertThat(written).isEqualTo("200 image/png " + IMAGE_SIZE);
            assertThat(TestFile.sha256(out)).isEqualTo(imageSha256);
            awaitZeroCopy(server, 0, IMAGE_SIZE);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    @Test
    void oneRangeOfAFileResourceIsSentWithoutCopying() throws Exception {
        long first = 1_000_003;
        long last = 9_000_000;
        var routes = RouterFunctions.route().GET("/picture", request -> ServerResponse.ok()
                .body(BodyInserters.fromResource(new FileSystemResource(image)))).build();
        try (AdapterServer server = AdapterServer.start(routes); HttpClient client = AdapterServer.client()) {
            HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(server.uri("/picture"))
                    .header("Range", "bytes=" + first + "-" + last).build(), HttpResponse.BodyHandlers.ofInputStream());

            assertThat(response.statusCode()).isEqualTo(206);
            assertThat(response.headers().firstValue("Content-Range"))
                    .hasValue("bytes " + first + "-" + last + "/" + IMAGE_SIZE);
            assertThat(response.headers().firstValueAsLong("Content-Length")).hasValue(last - first + 1);
            assertThat(TestFile.sha256(response.body()))
                    .isEqualTo(new TestFile(image, IMAGE_SIZE).sha256(first, last - first + 1));
            awaitZeroCopy(server, 0, last - first + 1);
        }
    }

    @Test
    void headOfAFileResourceSendsTheLengthAndNoBody() throws Exception {
        var routes = RouterFunctions.route().HEAD("/picture", request -> ServerResponse.ok()
                .body(BodyInserters.fromResource(new FileSystemResource(image)))).build();
        try (AdapterServer server = AdapterServer.start(routes); HttpClient client = AdapterServer.client()) {
            HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(server.uri("/picture"))
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofByteArray());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValueAsLong("Content-Length")).hasValue(IMAGE_SIZE);
            assertThat(response.body()).isEmpty();
            StatsSnapshot stats = Await.value("the exchange to end", server::stats, s -> s.exchangesActive() == 0);
            assertThat(stats.bytesSentZeroCopy()).isZero();
            assertThat(stats.bytesSent()).isLessThan(4096);
        }
    }

    @Test
    void overTlsTheFileIsCopiedAndArrivesIntact() throws Exception {
        try (AdapterServer server = AdapterServer.startHttps(zeroCopyHandler(image, MediaType.IMAGE_PNG),
                TestCertificates.get().serverContext());
             HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                     .sslContext(TestCertificates.get().clientContext()).connectTimeout(Duration.ofSeconds(5)).build()) {
            HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(server.uri("/")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValueAsLong("Content-Length")).hasValue(IMAGE_SIZE);
            assertThat(TestFile.sha256(response.body())).isEqualTo(imageSha256);
            StatsSnapshot stats = Await.value("the bytes to be counted", server::stats,
                    s -> s.bytesSent() >= IMAGE_SIZE && s.exchangesActive() == 0);
            assertThat(stats.bytesSentZeroCopy()).isZero();
        }
    }

    @Test
    void aGzippedFileIsCopiedIntoTheCompressor() throws Exception {
        WeftCompression gzip = new WeftCompression(true, List.of(MimeTypeUtils.TEXT_PLAIN), 2048, List.of());
        try (AdapterServer server = AdapterServer.start(zeroCopyHandler(text, MediaType.TEXT_PLAIN), gzip);
             HttpClient client = AdapterServer.client()) {
            HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(server.uri("/"))
                    .header("Accept-Encoding", "gzip").build(), HttpResponse.BodyHandlers.ofInputStream());

            assertThat(response.headers().firstValue("Content-Encoding")).hasValue("gzip");
            assertThat(TestFile.sha256(new GZIPInputStream(response.body()))).isEqualTo(TestFile.sha256(text));
            StatsSnapshot stats = Await.value("the exchange to end", server::stats, s -> s.exchangesActive() == 0);
            assertThat(stats.bytesSentZeroCopy()).isZero();
        }
    }

    @Test
    void aClientThatResetsMidFileEndsTheExchangeAsAClientEvent() throws Exception {
        try (AdapterServer server = AdapterServer.start(zeroCopyHandler(image, MediaType.IMAGE_PNG))) {
            try (Socket socket = new Socket()) {
                socket.setReceiveBufferSize(16 * 1024);
                socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5000);
                socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                InputStream in = socket.getInputStream();
                byte[] buf = new byte[64 * 1024];
                for (long total = 0; total < 1024 * 1024; ) {
                    int n = in.read(buf);
                    assertThat(n).as("the response ended early").isPositive();
                    total += n;
                }
                socket.setSoLinger(true, 0); // close with a reset, as a client that dies does
            }
            StatsSnapshot stats = Await.value("the connection to end", server::stats,
                    s -> s.connectionsActive() == 0 && s.exchangesActive() == 0);
            assertThat(stats.handlerExceptions()).as(stats::toString).isZero();
            assertThat(stats.bytesSentZeroCopy()).as(stats::toString).isPositive();
        }
    }
}
