package dev.weft.httpserver.files;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.AccessLogLines;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.TestFile;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link FileHandler} on cleartext HTTP/1.1, where file bytes go from the file to the socket without being
 * copied through the heap ({@code FileChannel.transferTo}): the client gets exactly the file's bytes, framed as
 * before, and the statistics count them as sent without copying ({@code bytesSentZeroCopy}). Driven by the JDK's
 * HttpClient, curl and a raw socket. The large file is far larger than the loopback socket buffers, so the
 * transfer has to wait for the client many times.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FileHandlerZeroCopyTest {

    private static final long LARGE_SIZE = 48L * 1024 * 1024;
    private static final long MEDIUM_SIZE = 1024 * 1024 + 17;

    private static Path root;
    private static TestFile large;
    private static TestFile medium;
    private static TestServer server;
    private static final AtomicLong filteredBytes = new AtomicLong();

    @BeforeAll
    static void serve() throws IOException {
        root = Files.createTempDirectory("weft-zero-copy");
        large = TestFile.create(root, "large.bin", LARGE_SIZE, 1);
        medium = TestFile.create(root, "medium.bin", MEDIUM_SIZE, 2);
        Files.writeString(root.resolve("small.txt"), "small\n");
        FileHandler files = FileHandler.builder(root).build();
        server = TestServer.builder().config(ServerConfig.builder().accessLog(true).build())
                .handle("/", files)
                .start();
        // A filter that replaces the response stream, as a compressing filter would: it must see every byte.
        server.server().createContext("/counted", files).getFilters().add(new Filter() {
            @Override
            public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
                exchange.setStreams(null, new FilterOutputStream(exchange.getResponseBody()) {
                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        filteredBytes.addAndGet(len);
                        out.write(b, off, len);
                    }
                });
                chain.doFilter(exchange);
            }

            @Override
            public String description() {
                return "counts the response bytes through its own stream";
            }
        });
    }

    @AfterAll
    static void stop() throws IOException {
        server.close();
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted((x, y) -> y.compareTo(x)).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    private static String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    /**
     * Waits until the counters show {@code fileBytes} more bytes sent from files, all but a few without copying:
     * when the socket's buffer is full the transfer waits for room by writing one byte the ordinary way.
     */
    private static StatsSnapshot statsAfter(StatsSnapshot before, long fileBytes) {
        return server.awaitStats(s -> s.bytesSentZeroCopy() - before.bytesSentZeroCopy() >= fileBytes * 99 / 100
                && s.bytesSent() - before.bytesSent() >= fileBytes && s.exchangesActive() == 0);
    }

    @Test
    void aLargeFileGoesFromTheFileToTheSocketWithoutCopyingAndArrivesIntact() throws Exception {
        StatsSnapshot before = server.stats();
        try (HttpClient client = client()) {
            HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(server.uri("/large.bin")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());

            assertEquals(200, response.statusCode());
            assertEquals(String.valueOf(LARGE_SIZE), response.headers().firstValue("Content-Length").orElseThrow());
            assertEquals("application/octet-stream", response.headers().firstValue("Content-Type").orElseThrow());
            assertEquals(large.sha256(), TestFile.sha256(response.body()));
        }
        StatsSnapshot after = statsAfter(before, LARGE_SIZE);
        assertTrue(after.bytesSentZeroCopy() - before.bytesSentZeroCopy() <= LARGE_SIZE, after::toString);
    }

    @Test
    void curlGetsTheWholeFileAndOneRangeOfItByteForByte() throws Exception {
        Path whole = root.resolve("curl-whole.out");
        Path part = root.resolve("curl-part.out");
        StatsSnapshot before = server.stats();
        ExternalTools.Result r = curl("-o", whole.toString(), "-w", "%{http_code} %{size_download}",
                url("/large.bin"));
        assertEquals("200 " + LARGE_SIZE, r.stdout(), r.describe());
        assertEquals(large.sha256(), TestFile.sha256(whole));

        long first = 3_000_001;
        long last = 29_999_998;
        ExternalTools.Result ranged = curl("-o", part.toString(), "-r", first + "-" + last, "-D", "-",
                "-w", "\n%{http_code} %{size_download}", url("/large.bin"));
        assertTrue(ranged.stdout().endsWith("206 " + (last - first + 1)), ranged.describe());
        assertTrue(ranged.stdout().toLowerCase(Locale.ROOT).contains(
                "content-range: bytes " + first + "-" + last + "/" + LARGE_SIZE), ranged.describe());
        assertEquals(large.sha256(first, last - first + 1), TestFile.sha256(part));
        statsAfter(before, LARGE_SIZE + (last - first + 1));
    }

    @Test
    void headAnswersWithTheFilesLengthAndSendsNoneOfIt() throws Exception {
        StatsSnapshot before = server.awaitStats(s -> s.exchangesActive() == 0);
        try (HttpClient client = client()) {
            HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(server.uri("/large.bin"))
                            .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofByteArray());

            assertEquals(200, response.statusCode());
            assertEquals(String.valueOf(LARGE_SIZE), response.headers().firstValue("Content-Length").orElseThrow());
            assertEquals(0, response.body().length);
        }
        StatsSnapshot after = server.awaitStats(s -> s.requests() > before.requests() && s.exchangesActive() == 0);
        assertEquals(before.bytesSentZeroCopy(), after.bytesSentZeroCopy(), after::toString);
        assertTrue(after.bytesSent() - before.bytesSent() < 4096, after::toString);
    }

    @Test
    void severalRangesSendEachPartFromTheFileBetweenTheirHeads() throws Exception {
        StatsSnapshot before = server.stats();
        try (HttpClient client = client()) {
            HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(server.uri("/large.bin"))
                            .header("Range", "bytes=10-99999,20000000-20199999").build(),
                    HttpResponse.BodyHandlers.ofByteArray());

            assertEquals(206, response.statusCode());
            String type = response.headers().firstValue("Content-Type").orElseThrow();
            Matcher m = Pattern.compile("multipart/byteranges; boundary=(\\S+)").matcher(type);
            assertTrue(m.matches(), type);
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            for (long[] range : List.of(new long[] {10, 99_999}, new long[] {20_000_000, 20_199_999})) {
                expected.write(("\r\n--" + m.group(1) + "\r\nContent-Type: application/octet-stream\r\n"
                        + "Content-Range: bytes " + range[0] + "-" + range[1] + "/" + LARGE_SIZE + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                expected.write(large.bytes(range[0], (int) (range[1] - range[0] + 1)));
            }
            expected.write(("\r\n--" + m.group(1) + "--\r\n").getBytes(StandardCharsets.US_ASCII));
            assertArrayEquals(expected.toByteArray(), response.body());
        }
        statsAfter(before, 99_990 + 200_000);
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrderAroundAFileSentWithoutCopyingAndConnectionCloseEndsTheLast()
            throws Exception {
        StatsSnapshot before = server.stats();
        try (RawHttpClient client = RawHttpClient.connect(server.port(), Duration.ofSeconds(20))) {
            // One write, four requests: the file's bytes must go out after the head and the small response before
            // them, which sit in the connection's buffer, and before the responses after them.
            client.send(RawHttpClient.get("/small.txt") + RawHttpClient.get("/medium.bin")
                    + RawHttpClient.get("/small.txt")
                    + "GET /medium.bin HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            List<RawHttpClient.Response> responses = client.readResponsesUntilClose();

            assertEquals(4, responses.size(), responses::toString);
            assertEquals("small\n", responses.get(0).bodyText());
            assertEquals(medium.sha256(), TestFile.sha256(new ByteArrayInputStream(responses.get(1).body())));
            assertEquals("small\n", responses.get(2).bodyText());
            assertEquals(medium.sha256(), TestFile.sha256(new ByteArrayInputStream(responses.get(3).body())));
            assertTrue(responses.get(3).hasConnectionToken("close"), responses.get(3)::toString);
            assertTrue(client.serverClosed(), "the connection stays open after Connection: close");
        }
        statsAfter(before, 2 * MEDIUM_SIZE);
    }

    @Test
    void theAccessLogCountsTheBytesOfAFileSentWithoutCopying() throws Exception {
        try (AccessLogLines log = AccessLogLines.capture(); HttpClient client = client()) {
            HttpResponse<Void> response = client.send(HttpRequest.newBuilder(server.uri("/medium.bin?logged"))
                    .build(), HttpResponse.BodyHandlers.discarding());
            assertEquals(200, response.statusCode());

            String line = log.until("/medium.bin?logged");
            assertTrue(line.contains("\"GET /medium.bin?logged HTTP/1.1\" 200 " + MEDIUM_SIZE + " "), line);
        }
    }

    @Test
    void aFilterThatReplacesTheResponseStreamGetsEveryByteCopied() throws Exception {
        StatsSnapshot before = server.awaitStats(s -> s.exchangesActive() == 0);
        filteredBytes.set(0);
        try (HttpClient client = client()) {
            HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(server.uri("/counted/large.bin"))
                    .build(), HttpResponse.BodyHandlers.ofInputStream());

            assertEquals(200, response.statusCode());
            assertEquals(large.sha256(), TestFile.sha256(response.body()));
        }
        StatsSnapshot after = server.awaitStats(s -> s.bytesSent() - before.bytesSent() >= LARGE_SIZE
                && s.exchangesActive() == 0);
        assertEquals(LARGE_SIZE, filteredBytes.get());
        assertEquals(before.bytesSentZeroCopy(), after.bytesSentZeroCopy(), after::toString);
    }

    private static ExternalTools.Result curl(String... args) {
        List<String> cmd = new ArrayList<>(List.of(ExternalTools.require("curl").toString(), "-s",
                "--max-time", "60"));
        cmd.addAll(List.of(args));
        ExternalTools.Result r = ExternalTools.run(cmd, Duration.ofSeconds(90));
        assertEquals(0, r.exit(), r.describe());
        return r;
    }
}
