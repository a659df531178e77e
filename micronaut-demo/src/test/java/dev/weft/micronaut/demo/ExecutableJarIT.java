package dev.weft.micronaut.demo;

import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.ExternalTools;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code java -jar} on the packaged demo (the shaded jar {@code mvn package} builds) starts it on Weft, and every
 * feature of the demo answers over real sockets: the JSON API with validation, the page, an upload, server-sent
 * events, the WebSocket echo, {@code /health} and {@code /metrics}.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ExecutableJarIT {

    private static final Pattern STARTED = Pattern.compile("Server Running: http://[^:]+:(\\d+)");

    private static Process process;
    private static HttpClient client;
    private static String base;

    @BeforeAll
    static void startTheJar() throws IOException {
        Path jar = Path.of(System.getProperty("demo.jar"));
        assertThat(jar).isRegularFile();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        process = new ProcessBuilder(List.of(java.toString(), "-Dmicronaut.server.port=-1", "-jar", jar.toString()))
                .redirectErrorStream(true)
                .start();
        BufferedReader log = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        int port = -1;
        StringBuilder seen = new StringBuilder();
        for (String line; port < 0 && (line = log.readLine()) != null; ) {
            seen.append(line).append('\n');
            Matcher m = STARTED.matcher(line);
            if (m.find()) {
                port = Integer.parseInt(m.group(1));
            }
        }
        assertThat(port).as("port in the log:\n" + seen).isPositive();
        // the rest of the log is read (and dropped) so that the process never blocks on a full pipe
        Thread.ofVirtual().start(() -> log.lines().forEach(line -> { }));
        base = "http://127.0.0.1:" + port;
        client = HttpClient.newHttpClient();
    }

    @AfterAll
    static void stopTheJar() throws InterruptedException {
        if (client != null) {
            client.close();
        }
        if (process != null) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    @Test
    void thePageIsServedFromTheStaticResourcesByWeft() throws Exception {
        HttpResponse<String> page = get("/");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Server")).hasValue("Weft");
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/html"));
        assertThat(page.body()).contains("<h1>Micronaut on Weft</h1>");
    }

    @Test
    void aValidNoteIsCreatedThenListedAndReadById() throws Exception {
        HttpResponse<String> created = postJson("/api/notes", "{\"title\":\"Shopping\",\"text\":\"milk\"}");

        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(created.headers().firstValue("Content-Type")).hasValue("application/json");
        Matcher id = Pattern.compile("\"id\":(\\d+)").matcher(created.body());
        assertThat(id.find()).as(created.body()).isTrue();
        assertThat(created.headers().firstValue("Location")).hasValue("/api/notes/" + id.group(1));

        assertThat(get("/api/notes").body())
                .startsWith("[{\"id\":1,\"title\":\"Welcome\"")
                .contains("{\"id\":" + id.group(1) + ",\"title\":\"Shopping\",\"text\":\"milk\"}");
        HttpResponse<String> one = get("/api/notes/" + id.group(1));
        assertThat(one.statusCode()).isEqualTo(200);
        assertThat(one.body()).isEqualTo("{\"id\":" + id.group(1) + ",\"title\":\"Shopping\",\"text\":\"milk\"}");
    }

    @Test
    void anUnknownNoteIsNotFound() throws Exception {
        assertThat(get("/api/notes/999999").statusCode()).isEqualTo(404);
    }

    @Test
    void aNoteWithABlankTitleIsRejectedWithTheFieldNamed() throws Exception {
        HttpResponse<String> rejected = postJson("/api/notes", "{\"title\":\" \",\"text\":\"no title\"}");

        assertThat(rejected.statusCode()).isEqualTo(400);
        assertThat(rejected.body()).contains("request.title: must not be blank");
        assertThat(get("/api/notes").body()).doesNotContain("no title");
    }

    @Test
    void anUploadedFileArrivesWholeWithItsNameAndType() throws Exception {
        byte[] content = new byte[100_000];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i * 31);
        }
        String boundary = "weft-demo-boundary";
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"data.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        body.writeBytes(content);
        body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));

        HttpResponse<String> received = client.send(HttpRequest.newBuilder(URI.create(base + "/api/upload"))
                        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        String sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        assertThat(received.statusCode()).isEqualTo(200);
        assertThat(received.body()).isEqualTo("{\"filename\":\"data.bin\",\"contentType\":\"application/octet-stream\","
                + "\"size\":100000,\"sha256\":\"" + sha256 + "\"}");
    }

    @Test
    void serverSentEventsArriveOneByOneAndTheStreamEnds() {
        Path curl = ExternalTools.require("curl");

        ExternalTools.Result events = ExternalTools.run(List.of(curl.toString(), "-sS", "-N", "-i",
                base + "/api/ticks?count=3&intervalMs=50"), Duration.ofSeconds(30));

        assertThat(events.exit()).as(events.describe()).isZero();
        String out = events.stdout();
        assertThat(out).startsWith("HTTP/1.1 200").containsIgnoringCase("content-type: text/event-stream");
        for (int n = 1; n <= 3; n++) {
            assertThat(out).contains("id: " + n + "\nevent: tick\ndata: {\"n\":" + n + ",\"of\":3,\"at\":\"");
        }
        assertThat(out).doesNotContain("id: 4");
    }

    @Test
    void theWebSocketEchoesEachTextMessage() throws Exception {
        EchoClient echo = new EchoClient();
        WebSocket socket = client.newWebSocketBuilder()
                .buildAsync(URI.create(base.replace("http://", "ws://") + "/ws/echo"), echo)
                .get(20, TimeUnit.SECONDS);

        for (String message : List.of("hello", "Grüße über WebSocket", "x".repeat(10_000))) {
            assertThat(echo.roundTrip(socket, message)).as("the echo of a %d-char message", message.length())
                    .isEqualTo(message);
        }
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(20, TimeUnit.SECONDS);
        assertThat(echo.closed.get(20, TimeUnit.SECONDS)).isEqualTo(WebSocket.NORMAL_CLOSURE);
    }

    @Test
    void healthIsUp() throws Exception {
        HttpResponse<String> health = get("/health");

        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).isEqualTo("{\"status\":\"UP\"}");
    }

    @Test
    void metricsCountTheRequestsOfARoute() throws Exception {
        assertThat(get("/api/notes/1").statusCode()).isEqualTo(200);

        assertThat(get("/metrics").body()).contains("\"http.server.requests\"", "\"jvm.memory.used\"");
        // the meter is recorded as the response completes, which may be just after the client has it
        String meter = Await.value("a count of GET /api/notes/{id}",
                () -> uncheckedGet("/metrics/http.server.requests?tag=uri:/api/notes/%7Bid%7D").body(),
                body -> body.matches(".*\\{\"statistic\":\"COUNT\",\"value\":[1-9][0-9]*\\.0}.*"));
        assertThat(meter).contains("\"name\":\"http.server.requests\"");
    }

    /** A WebSocket listener that hands each whole text message to the round trip waiting for it. */
    private static final class EchoClient implements WebSocket.Listener {

        final CompletableFuture<Integer> closed = new CompletableFuture<>();
        private final StringBuilder parts = new StringBuilder();
        private volatile CompletableFuture<String> reply = new CompletableFuture<>();

        /** Sends {@code message} and returns the next text message received (within 20 seconds). */
        String roundTrip(WebSocket socket, String message) throws Exception {
            CompletableFuture<String> answer = new CompletableFuture<>();
            reply = answer;
            socket.sendText(message, true).get(20, TimeUnit.SECONDS);
            return answer.get(20, TimeUnit.SECONDS);
        }

        @Override
        public CompletionStage<?> onClose(WebSocket socket, int statusCode, String reason) {
            closed.complete(statusCode);
            return null;
        }

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            parts.append(data);
            socket.request(1);
            if (last) {
                reply.complete(parts.toString());
                parts.setLength(0);
            }
            return null;
        }
    }

    private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> uncheckedGet(String path) {
        try {
            return get(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static HttpResponse<String> postJson(String path, String json) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create(base + path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
