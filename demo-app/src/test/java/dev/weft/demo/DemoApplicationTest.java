package dev.weft.demo;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.Weft;
import dev.weft.spring.boot.WeftWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every endpoint of the demo but the chat ({@link ChatHandlerTest}), over real HTTP to the Weft server on a
 * random port.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DemoApplicationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    @LocalServerPort
    private int port;

    @Autowired
    private WebServerApplicationContext context;

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10));
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) {
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        return JSON.readTree(response.body());
    }

    @Test
    void runsOnWeft() {
        assertThat(context.getWebServer()).isInstanceOf(WeftWebServer.class);
        assertThat(context.getWebServer().getPort()).isEqualTo(port);
    }

    @Test
    void http2IsEnabledWithH2cOnTheDemoPort() {
        ServerConfig config = Weft.config(((WeftWebServer) context.getWebServer()).getServer());

        assertThat(config.http2().h2Enabled()).isTrue();
        assertThat(config.http2().h2cEnabled()).isTrue();
    }

    @Test
    void protocolOfAnHttp11RequestIsHttp11() throws Exception {
        HttpResponse<String> response = get("/api/protocol");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode protocol = json(response);
        assertThat(protocol.get("protocol").asString()).isEqualTo("HTTP/1.1");
        assertThat(protocol.get("secure").asBoolean()).isFalse();
    }

    @Test
    void protocolOfAnH2cRequestIsHttp2() throws Exception {
        String output = curl("--http2-prior-knowledge", "-w", "\n%{http_version}",
                "http://127.0.0.1:" + port + "/api/protocol");

        String[] lines = output.split("\n");
        assertThat(JSON.readTree(lines[0]).get("protocol").asString()).isEqualTo("HTTP/2.0");
        assertThat(lines[1]).isEqualTo("2");
    }

    /** Runs curl (built with nghttp2) and returns its standard output. */
    private static String curl(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("/usr/bin/curl", "-sS", "--max-time", "10"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("curl finished").isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }

    @Test
    void greetingGreetsByNameAndDefaultsToWorld() throws Exception {
        HttpResponse<String> named = get("/api/greeting?name=Ada");
        assertThat(named.statusCode()).isEqualTo(200);
        assertThat(json(named).get("message").asString()).isEqualTo("Hello, Ada!");

        HttpResponse<String> anonymous = get("/api/greeting");
        assertThat(json(anonymous).get("message").asString()).isEqualTo("Hello, World!");
    }

    @Test
    void echoReturnsTheJsonDocumentItWasSent() throws Exception {
        String document = "{\"numbers\":[1,2,3],\"nested\":{\"ok\":true},\"text\":\"caf\u00e9\"}";
        HttpResponse<String> response = client.send(request("/api/echo")
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(document, StandardCharsets.UTF_8))
                        .build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).get("received")).isEqualTo(JSON.readTree(document));
    }

    @Test
    void echoRejectsAMalformedDocument() throws Exception {
        HttpResponse<String> response = client.send(request("/api/echo")
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{not json"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(400);
    }

    @Test
    void uploadStreamsAChunkedBodyAndReportsItsSizeAndSha256() throws Exception {
        byte[] payload = new byte[3 * 1024 * 1024 + 17];
        new Random(42).nextBytes(payload);
        String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(payload));

        // ofInputStream has no known length, so the client sends the body chunked
        HttpResponse<String> response = client.send(request("/api/upload")
                        .header("Content-Type", "application/octet-stream")
                        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(payload)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode result = json(response);
        assertThat(result.get("bytes").asLong()).isEqualTo(payload.length);
        assertThat(result.get("sha256").asString()).isEqualTo(expected);
    }

    @Test
    @Timeout(120)
    void fiftyMegabyteUploadIsStreamedWithoutHoldingTheBodyInMemory() throws Exception {
        long size = 50L * 1024 * 1024;
        MessageDigest expected = MessageDigest.getInstance("SHA-256");
        long baseline = liveHeap();
        GeneratedStream body = new GeneratedStream(size, expected);

        HttpResponse<String> response = client.send(request("/api/upload")
                        .timeout(Duration.ofSeconds(100))
                        .header("Content-Type", "application/octet-stream")
                        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode result = json(response);
        assertThat(result.get("bytes").asLong()).isEqualTo(size);
        assertThat(result.get("sha256").asString()).isEqualTo(HexFormat.of().formatHex(expected.digest()));
        // Halfway through, a server that aggregated the body would hold 25 MB of it; a streaming one holds a
        // few buffers.
        assertThat(body.liveHeapAtHalfway - baseline).as("live heap growth halfway through the upload")
                .isLessThan(16L * 1024 * 1024);
    }

    /** Heap in use after a full collection. */
    private static long liveHeap() {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        System.gc();
        return rt.totalMemory() - rt.freeMemory();
    }

    /**
     * {@code size} pseudo-random bytes produced as they are read, hashed into {@code digest} on the way; records
     * the live heap when half of them have been sent.
     */
    private static final class GeneratedStream extends InputStream {
        private final Random random = new Random(7);
        private final MessageDigest digest;
        private final long half;
        private long remaining;
        private volatile long liveHeapAtHalfway;

        GeneratedStream(long size, MessageDigest digest) {
            this.remaining = size;
            this.half = size / 2;
            this.digest = digest;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (remaining == 0) {
                return -1;
            }
            int n = (int) Math.min(len, remaining);
            if (remaining > half && remaining - n <= half) {
                liveHeapAtHalfway = liveHeap();
            }
            byte[] chunk = new byte[n];
            random.nextBytes(chunk);
            System.arraycopy(chunk, 0, b, off, n);
            digest.update(chunk);
            remaining -= n;
            return n;
        }
    }

    @Test
    void uploadOfAnEmptyBodyHashesNothing() throws Exception {
        HttpResponse<String> response = client.send(request("/api/upload")
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode result = json(response);
        assertThat(result.get("bytes").asLong()).isZero();
        assertThat(result.get("sha256").asString())
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    @Test
    void statsReportTheServersOwnCounters() throws Exception {
        get("/api/greeting");
        HttpResponse<String> response = get("/api/stats");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode stats = json(response);
        assertThat(stats.get("available").asBoolean()).isTrue();
        assertThat(stats.get("requests").asLong()).isGreaterThanOrEqualTo(2);
        assertThat(stats.get("exchangesActive").asLong()).isGreaterThanOrEqualTo(1); // this very request
        assertThat(stats.get("connectionsActive").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(stats.get("http2").get("connections").isNumber()).isTrue();
        assertThat(stats.get("http2").get("streamsActive").isNumber()).isTrue();
        assertThat(stats.get("http2").get("goAwaysSent").isNumber()).isTrue();
    }

    @Test
    void ticksStreamServerSentEventsWithLiveStats() throws Exception {
        HttpResponse<InputStream> response = client.send(request("/api/ticks")
                        .header("Accept", "text/event-stream")
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/event-stream"));

        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            // Two events: the first comes at once, the second a second later, so events are pushed as they
            // happen rather than buffered until the end of a stream that never ends.
            for (int event = 0; event < 2; event++) {
                String id = null;
                String name = null;
                String data = null;
                for (String line = lines.readLine(); line != null && !line.isEmpty(); line = lines.readLine()) {
                    if (line.startsWith("id:")) {
                        id = line.substring(3).strip();
                    } else if (line.startsWith("event:")) {
                        name = line.substring(6).strip();
                    } else if (line.startsWith("data:")) {
                        data = line.substring(5).strip();
                    }
                }
                assertThat(id).isEqualTo(Integer.toString(event));
                assertThat(name).isEqualTo("stats");
                assertThat(data).isNotNull();
                JsonNode stats = JSON.readTree(data);
                assertThat(stats.get("available").asBoolean()).isTrue();
                assertThat(stats.get("connectionsActive").asLong()).isGreaterThanOrEqualTo(1);
            }
        }
    }

    @Test
    void indexPageAndItsAssetsAreServed() throws Exception {
        HttpResponse<String> index = get("/");
        assertThat(index.statusCode()).isEqualTo(200);
        assertThat(index.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/html"));
        assertThat(index.body()).contains("<title>Weft demo", "app.js", "style.css", "s-protocol",
                "s-h2Connections");

        HttpResponse<String> script = get("/app.js");
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.body()).contains("EventSource");

        HttpResponse<String> style = get("/style.css");
        assertThat(style.statusCode()).isEqualTo(200);
        assertThat(style.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/css"));
    }

    @Test
    void compressibleResponsesAreGzippedForClientsThatAcceptIt() throws Exception {
        HttpResponse<byte[]> response = client.send(request("/app.js").header("Accept-Encoding", "gzip").build(),
                HttpResponse.BodyHandlers.ofByteArray());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Encoding")).hasValue("gzip");
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(response.body()))) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).contains("EventSource");
        }
    }

    @Test
    void actuatorHealthIsUp() throws Exception {
        HttpResponse<String> response = get("/actuator/health");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(response.body()).get("status").asString()).isEqualTo("UP");
    }

    @Test
    void aPathStartingWithDoubleSlashIsNotActuator() throws Exception {
        String output = curl("--path-as-is", "-w", "\n%{http_code}",
                "http://127.0.0.1:" + port + "//evil.example/actuator/health");

        assertThat(output).endsWith("\n404").contains("\"path\":\"//evil.example/actuator/health\"")
                .doesNotContain("UP");
    }

    @Test
    void actuatorMetricsListWeftMeters() throws Exception {
        get("/api/greeting");
        HttpResponse<String> names = get("/actuator/metrics");
        assertThat(names.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(names.body()).get("names").toString())
                .contains("\"weft.requests\"", "\"weft.connections.active\"", "\"weft.bytes.sent\"");

        HttpResponse<String> requests = get("/actuator/metrics/weft.requests");
        assertThat(requests.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(requests.body()).get("measurements").get(0).get("value").asDouble())
                .isGreaterThanOrEqualTo(1);
    }

    @Test
    void liveStatsCountWebSocketSessions() throws Exception {
        try (ChatClients clients = new ChatClients(port)) {
            ChatClients.Guest guest = clients.join();
            guest.welcome();

            JsonNode stats = JSON.readTree(get("/api/stats").body());
            assertThat(stats.get("webSocket").get("sessionsActive").asLong()).isPositive();
            assertThat(stats.get("webSocket").get("sessionsOpened").asLong()).isPositive();
            guest.leave();
        }
    }
}
