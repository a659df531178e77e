package dev.weft.spring.boot;

import dev.weft.httpserver.testing.Await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * The file of {@code weft.server.access-log.file}, and a request whose combined-format line is awaited in it (its
 * user agent is new each time, so a line left by an earlier run never counts).
 */
public final class AccessLogProbe {

    private final Path file;

    private AccessLogProbe(Path file) {
        this.file = file;
    }

    /** The log file at {@code path} (relative to the module's directory). */
    public static AccessLogProbe at(String path) {
        return new AccessLogProbe(Path.of(path));
    }

    /**
     * Sends {@code GET /access-log-probe?<name>} with the user agent {@code <prefix>-<random>} to the server on
     * {@code port} and waits for its line, status and user agent included, in the file.
     */
    public void requestAndAwaitLine(int port, String prefix) throws IOException, InterruptedException {
        String name = prefix + "-" + UUID.randomUUID();
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<Void> response = client.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + "/access-log-probe?" + name))
                    .header("User-Agent", name).build(), HttpResponse.BodyHandlers.discarding());
            String expected = "\"GET /access-log-probe?" + name + " HTTP/1.1\" " + response.statusCode() + " ";
            Await.until("the line of " + name + " in " + file, () -> read().lines()
                    .anyMatch(l -> l.contains(expected) && l.endsWith(" \"-\" \"" + name + "\"")));
        }
    }

    private String read() {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
