package dev.weft.httpserver.accesslog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.AccessLogConfig;
import dev.weft.httpserver.config.ForwardedConfig;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The access log file of a running server: parseable by a standard analyser, and whole across rotations. */
class AccessLogFileTest {

    private static final HttpHandler OK = exchange -> TestServer.respond(exchange, 200, "ok");

    @TempDir
    Path dir;

    private static TestServer start(AccessLogConfig log) throws IOException {
        return TestServer.builder().config(ServerConfig.builder().accessLog(log).build()).handle("/", OK).start();
    }

    /** A graceful stop: every exchange has ended, so every line is written and the file closed. */
    private static void stopGracefully(TestServer server) {
        server.server().stop(5);
    }

    @Test
    void behindATrustedProxyTheLineNamesTheForwardedClient() throws Exception {
        Path file = dir.resolve("forwarded.log");
        TestServer server = TestServer.builder().config(ServerConfig.builder()
                .accessLog(AccessLogConfig.builder().enabled(true).file(file.toString()).build())
                .forwarded(ForwardedConfig.builder().enabled(true).trustedProxies("internal").build()).build())
                .handle("/", OK).start();
        try (RawHttpClient client = server.connect()) {
            client.send("GET /behind HTTP/1.1\r\nHost: a\r\nX-Forwarded-For: 203.0.113.7\r\n\r\n");
            assertEquals(200, client.readResponse().status());
            client.send("GET /direct HTTP/1.1\r\nHost: a\r\n\r\n");
            assertEquals(200, client.readResponse().status());
        }
        stopGracefully(server);
        List<String> lines = Files.readAllLines(file);
        assertEquals(2, lines.size(), lines::toString);
        assertTrue(lines.get(0).startsWith("203.0.113.7 - - ["), lines.get(0));
        assertTrue(lines.get(1).startsWith("127.0.0.1 - - ["), lines.get(1));
    }

    @Test
    void theLinesOfAPipelinedBatchReachTheFileInOrderWhileTheConnectionWaitsForMore() throws Exception {
        Path file = dir.resolve("pipelined.log");
        TestServer server = start(AccessLogConfig.builder().enabled(true).file(file.toString())
                .flushInterval(Duration.ofMillis(20)).build());
        int requests = 50;
        StringBuilder batch = new StringBuilder();
        for (int i = 0; i < requests; i++) {
            batch.append("GET /p").append(i).append(" HTTP/1.1\r\nHost: a\r\n\r\n");
        }
        try (RawHttpClient client = server.connect()) {
            client.send(batch.toString());
            for (int i = 0; i < requests; i++) {
                assertEquals(200, client.readResponse().status());
            }
            // The connection stays open and idle: its lines must not wait for it to close.
            Await.until("every line of the batch written", () -> lines(file).size() == requests);
            List<String> lines = lines(file);
            for (int i = 0; i < requests; i++) {
                assertTrue(lines.get(i).contains("\"GET /p" + i + " HTTP/1.1\" 200 "), lines.get(i));
            }
        } finally {
            stopGracefully(server);
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void goaccessParsesTheCombinedFormatAndCountsEveryRequest() throws Exception {
        Path goaccess = ExternalTools.require("goaccess");
        Path file = dir.resolve("logs/access.log");
        TestServer server = start(AccessLogConfig.builder().enabled(true).file(file.toString()).build());
        int requests = 25;
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            for (int i = 0; i < requests; i++) {
                HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                                + (i % 5 == 0 ? "/missing/" : "/page/") + i + "?q=" + i))
                        .header("Referer", "https://referrer.example/from/" + i)
                        .header("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) weft-test/" + i)
                        .method(i % 3 == 0 ? "HEAD" : "GET", HttpRequest.BodyPublishers.noBody()).build();
                assertEquals(200, client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode());
            }
        }
        stopGracefully(server);

        Path json = dir.resolve("report.json");
        ExternalTools.Result r = ExternalTools.run(List.of(goaccess.toString(), file.toString(),
                "--log-format=COMBINED", "--no-global-config", "-o", json.toString()), Duration.ofSeconds(60));
        assertEquals(0, r.exit(), r::describe);
        String report = Files.readString(json);
        assertEquals(requests, number(report, "total_requests"), report);
        assertEquals(requests, number(report, "valid_requests"), report);
        assertEquals(0, number(report, "failed_requests"), report);
    }

    @Test
    void rotationUnderLoadLosesNoLine() throws Exception {
        Path file = dir.resolve("access.log");
        long maxSize = 256 * 1024;
        TestServer server = start(AccessLogConfig.builder().enabled(true).file(file.toString()).rotateDaily(false)
                .maxFileSize(maxSize).maxFiles(1000).queueCapacity(100_000).build());
        int connections = 8;
        int perConnection = 2_500;
        ExecutorService clients = Executors.newFixedThreadPool(connections);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int c = 0; c < connections; c++) {
                int client = c;
                done.add(clients.submit((Callable<Integer>) () -> {
                    try (RawHttpClient raw = RawHttpClient.connect(server.port())) {
                        for (int i = 0; i < perConnection; i++) {
                            String target = "/load/" + client + "/" + i;
                            assertEquals(200, raw.send(RawHttpClient.get(target)).readResponse().status());
                        }
                    }
                    return perConnection;
                }));
            }
            for (Future<Integer> f : done) {
                f.get();
            }
        } finally {
            clients.shutdownNow();
        }
        stopGracefully(server);

        List<Path> rotated = Rotation.rotatedFiles(file);
        assertTrue(rotated.size() >= 3, "rotated several times: " + rotated);
        long lines = 0;
        for (Path p : rotated) {
            assertTrue(Files.size(p) <= maxSize, p + " is " + Files.size(p) + " bytes");
            lines += Files.readAllLines(p).size();
        }
        lines += Files.readAllLines(file).size();
        assertEquals((long) connections * perConnection, lines);
        assertEquals(0, server.stats().accessLogLinesDropped());
    }

    @Test
    void aFileThatCannotBeOpenedFailsTheStart() throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("not-a-directory"), "x");
        ServerConfig config = ServerConfig.builder().accessLog(AccessLogConfig.builder().enabled(true)
                .file(notADirectory.resolve("access.log").toString()).build()).build();
        HttpServer server = Weft.createHttpServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0,
                config);
        try {
            UncheckedIOException e = assertThrows(UncheckedIOException.class, server::start);
            assertTrue(e.getMessage().startsWith("cannot open the access log"), e.getMessage());
        } finally {
            server.stop(0);
        }
    }

    private static long number(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\"\\s*:\\s*(\\d+)").matcher(json);
        assertTrue(m.find(), key + " in " + json);
        return Long.parseLong(m.group(1));
    }
}
