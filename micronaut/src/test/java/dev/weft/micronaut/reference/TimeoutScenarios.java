package dev.weft.micronaut.reference;

import dev.weft.micronaut.app.SocketLog;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Clients that stall or dawdle, and what the server does about them under {@code micronaut.server.idle-timeout}
 * and {@code micronaut.server.read-timeout}: a request head that stops in the middle, a body that stops, a body
 * that comes slowly but steadily, an idle keep-alive connection and an idle WebSocket session. Two settings are
 * played ({@link #IDLE_TIMEOUT}, {@link #READ_TIMEOUT}); the {@code netty-reference} execution records what Netty
 * does under each, the Weft tests compare.
 *
 * <p>A slow client's pieces are sent by a scheduler at fixed intervals; the end of the connection is waited for by
 * a blocking read (guarded by a 30 s limit) and timed.
 */
public final class TimeoutScenarios {

    /**
     * The server settings a recording is made under, and the interval of the slow client's pieces (five of them,
     * sent within the 5 s Weft allows a body before it applies its minimum data rate, which Netty does not have).
     */
    public record Settings(String name, Map<String, String> properties, Duration slowInterval, Path recording) {
    }

    /** Only {@code idle-timeout} set: 3 s. */
    public static final Settings IDLE_TIMEOUT = new Settings("idle-timeout",
            Map.of("micronaut.server.idle-timeout", "3s"), Duration.ofMillis(800),
            Path.of("target", "netty-reference-idle-timeout.properties"));

    /** {@code read-timeout} 2 (seconds) under an {@code idle-timeout} of 5 s. */
    public static final Settings READ_TIMEOUT = new Settings("read-timeout",
            Map.of("micronaut.server.read-timeout", "2", "micronaut.server.idle-timeout", "5s"),
            Duration.ofMillis(600), Path.of("target", "netty-reference-read-timeout.properties"));

    /**
     * What the client saw: the answer ({@code <status line> | <body>}, {@code none} when the connection ended
     * without one, {@code close <code>} for a WebSocket) and after how many whole seconds (since the client's
     * last byte, or the last answer) the server ended the connection ({@code -1} when the client ended it).
     */
    public record Observed(String answer, long endedAfterSeconds) {
    }

    public static final List<String> ALL = List.of("stalledHead", "stalledBody", "slowBody", "idleKeepAlive",
            "idleWebSocket");

    private static final String BODY_HEAD = "POST /sample/text HTTP/1.1\r\nHost: localhost\r\n"
            + "Content-Type: text/plain\r\nContent-Length: 100\r\n";

    private TimeoutScenarios() {
    }

    /** Plays {@code scenario} against the server at {@code base}. */
    public static Observed play(String scenario, URI base, SocketLog log, Settings settings) throws IOException,
            InterruptedException {
        return switch (scenario) {
            case "stalledHead" -> stalled(base, "GET /sample/hello HTTP/1.1\r\nHost: localhost\r\n");
            case "stalledBody" -> stalled(base, BODY_HEAD + "\r\n" + "x".repeat(10));
            case "slowBody" -> slowBody(base, settings.slowInterval());
            case "idleKeepAlive" -> idleKeepAlive(base);
            case "idleWebSocket" -> idleWebSocket(base, log);
            default -> throw new IllegalArgumentException(scenario);
        };
    }

    /** Plays every scenario against Micronaut's Netty server at {@code base} and saves what it did. */
    static void recordNetty(URI base, SocketLog log, Settings settings) throws Exception {
        Map<String, Observed> observed = playAll(base, log, settings);
        Recordings.save(toProperties(observed), settings.recording(),
                "Micronaut's Netty server in TimeoutScenarios under " + settings.properties());
    }

    /** Plays every scenario at once (they mostly wait) and returns what was observed, by name. */
    public static Map<String, Observed> playAll(URI base, SocketLog log, Settings settings) throws Exception {
        Map<String, CompletableFuture<Observed>> running = new LinkedHashMap<>();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (String scenario : ALL) {
                running.put(scenario, CompletableFuture.supplyAsync(() -> {
                    try {
                        return play(scenario, base, log, settings);
                    } catch (IOException | InterruptedException ex) {
                        throw new IllegalStateException(scenario + ": " + ex, ex);
                    }
                }, threads));
            }
            Map<String, Observed> observed = new LinkedHashMap<>();
            for (Map.Entry<String, CompletableFuture<Observed>> entry : running.entrySet()) {
                try {
                    observed.put(entry.getKey(), entry.getValue().get());
                } catch (ExecutionException ex) {
                    throw new AssertionError(ex.getCause().getMessage(), ex.getCause());
                }
            }
            return observed;
        }
    }

    /** Sends {@code bytes} and stops: what does the server do, and when? */
    private static Observed stalled(URI base, String bytes) throws IOException {
        try (RawHttpConnection connection = new RawHttpConnection(base)) {
            connection.send(bytes);
            long sent = System.nanoTime();
            RawHttpConnection.Ending end = connection.readToEnd();
            return new Observed(describe(end.received()), seconds(end.endedNanos() - sent));
        }
    }

    /** A body of 100 bytes in five pieces, one every {@code interval}, with the connection to close after. */
    private static Observed slowBody(URI base, Duration interval) throws IOException, InterruptedException {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (RawHttpConnection connection = new RawHttpConnection(base)) {
            connection.send(BODY_HEAD + "Connection: close\r\n\r\n");
            CompletableFuture<Void> sent = new CompletableFuture<>();
            for (int piece = 1; piece <= 5; piece++) {
                boolean last = piece == 5;
                scheduler.schedule(() -> {
                    try {
                        connection.send("y".repeat(20));
                        if (last) {
                            sent.complete(null);
                        }
                    } catch (IOException ex) {
                        sent.completeExceptionally(ex);
                    }
                }, interval.toMillis() * piece, TimeUnit.MILLISECONDS);
            }
            RawHttpConnection.Ending end = connection.readToEnd();
            String failure = sent.isCompletedExceptionally() ? " (sending failed)" : "";
            return new Observed(describe(end.received()) + failure, -1);
        } finally {
            scheduler.shutdownNow();
        }
    }

    /** A whole request answered, then nothing: when does the server close the idle connection? */
    private static Observed idleKeepAlive(URI base) throws IOException {
        try (RawHttpConnection connection = new RawHttpConnection(base)) {
            connection.send("GET /sample/hello HTTP/1.1\r\nHost: localhost\r\n\r\n");
            String answer = connection.readResponse();
            long answered = System.nanoTime();
            RawHttpConnection.Ending end = connection.readToEnd();
            return new Observed(answer + (end.received().isEmpty() ? "" : " then " + describe(end.received())),
                    seconds(end.endedNanos() - answered));
        }
    }

    /** A WebSocket session that neither side uses: when and how does the server close it? */
    private static Observed idleWebSocket(URI base, SocketLog log) throws IOException, InterruptedException {
        try (RawWebSocket socket = new RawWebSocket(base, "/failing/handled")) {
            long opened = System.nanoTime();
            RawWebSocket.Frame frame = socket.next();
            long ended = System.nanoTime();
            String answer = frame == null ? "none" : frame.describe();
            if (frame != null && frame.opcode() == RawWebSocket.CLOSE) {
                socket.sendClose(frame.code());
                socket.awaitEnd();
            }
            if (!log.awaitEnd(socket.sessionId(), true)) {
                throw new AssertionError("The idle WebSocket session did not end: " + log.calls(socket.sessionId()));
            }
            return new Observed(answer + ", @OnClose " + log.calls(socket.sessionId()).stream()
                    .filter(c -> c.startsWith("onClose")).findFirst().orElse("not called"),
                    seconds(ended - opened));
        }
    }

    /** {@code <status line> | <body>} of a response, or {@code none}. */
    static String describe(String response) {
        String status = RawHttpConnection.statusLine(response);
        int body = response.indexOf("\r\n\r\n");
        return body < 0 ? status : status + " | " + response.substring(body + 4);
    }

    private static long seconds(long nanos) {
        return TimeUnit.NANOSECONDS.toSeconds(nanos);
    }

    static Map<String, String> toProperties(Map<String, Observed> observed) {
        Map<String, String> properties = new LinkedHashMap<>();
        observed.forEach((name, o) -> {
            properties.put(name + ".answer", o.answer());
            properties.put(name + ".endedAfterSeconds", Long.toString(o.endedAfterSeconds()));
        });
        return properties;
    }

    /** The recorded observations, by scenario name. */
    public static Map<String, Observed> load(Path file) throws IOException {
        Map<String, String> properties = Recordings.load(file);
        Map<String, Observed> observed = new LinkedHashMap<>();
        for (String name : ALL) {
            String answer = properties.get(name + ".answer");
            if (answer != null) {
                observed.put(name, new Observed(answer,
                        Long.parseLong(properties.get(name + ".endedAfterSeconds"))));
            }
        }
        return observed;
    }
}
