package dev.weft.micronaut.reference;

import dev.weft.micronaut.app.SocketLog;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * WebSocket sessions whose course Weft must follow as Micronaut's Netty server does: a failure in
 * {@code @OnMessage} with and without {@code @OnError}, a client breaking RFC 6455, and the lifecycle events of an
 * ordinary session. {@code NettyWebSocketReferenceRecording} plays them against Netty and records what happened;
 * the Weft tests play them against Weft and compare.
 *
 * <p>Each step is sent by {@link RawWebSocket} and followed by a ping: the pong (or the server's close frame, if
 * the step ended the session) tells the client that the server has dealt with the step, without waiting for a
 * time. A session the server leaves open is closed by the client with {@code 1000} at the end.
 */
public final class WebSocketScenarios {

    /** Where the Netty execution leaves its recording for the Weft tests. */
    public static final Path RECORDING = Path.of("target", "netty-reference-websocket.properties");

    private WebSocketScenarios() {
    }

    /** One frame a scenario's client sends. */
    public record Step(int opcode, byte[] payload, boolean masked) {

        static Step text(String text) {
            return new Step(RawWebSocket.TEXT, text.getBytes(StandardCharsets.UTF_8), true);
        }
    }

    /** A scenario: the socket's path and what the client sends. */
    public record Scenario(String name, String path, List<Step> steps) {
    }

    /**
     * What happened: the text messages the client received; who closed the session and with which code
     * ({@code server 1011}, {@code client 1000}); the calls of the socket bean's methods and the lifecycle events
     * published, as {@link SocketLog} saw them.
     */
    public record Observed(List<String> received, String closedBy, List<String> calls, List<String> events) {
    }

    public static final Map<String, Scenario> ALL = scenarios();

    private static Map<String, Scenario> scenarios() {
        Map<String, Scenario> all = new LinkedHashMap<>();
        add(all, "messageThenClientClose", "/failing/handled", Step.text("hello"));
        add(all, "throwingOnMessageWithOnError", "/failing/handled", Step.text("throw"));
        add(all, "failingPublisherWithOnError", "/failing/handled", Step.text("fail later"));
        add(all, "throwingOnMessageWithoutOnError", "/failing/unhandled", Step.text("throw"));
        add(all, "unmaskedFrame", "/failing/handled",
                new Step(RawWebSocket.TEXT, "hello".getBytes(StandardCharsets.UTF_8), false));
        // 0xC3 starts a two-byte sequence; 0x28 ('(') cannot continue it
        add(all, "invalidUtf8Text", "/failing/handled",
                new Step(RawWebSocket.TEXT, new byte[] {'a', (byte) 0xC3, 0x28}, true));
        return all;
    }

    private static void add(Map<String, Scenario> all, String name, String path, Step... steps) {
        all.put(name, new Scenario(name, path, List.of(steps)));
    }

    /** Plays {@code scenario} against the server at {@code base}, whose {@link SocketLog} is {@code log}. */
    public static Observed play(URI base, SocketLog log, Scenario scenario) throws IOException,
            InterruptedException {
        List<String> received = new ArrayList<>();
        String closedBy = null;
        String id;
        try (RawWebSocket socket = new RawWebSocket(base, scenario.path())) {
            id = socket.sessionId();
            int probe = 0;
            for (Step step : scenario.steps()) {
                socket.send(step.opcode(), step.payload(), step.masked());
                byte[] ping = ("probe " + ++probe).getBytes(StandardCharsets.US_ASCII);
                try {
                    socket.send(RawWebSocket.PING, ping, true);
                } catch (IOException gone) {
                    // the server may have ended the connection already; its close frame is still to be read
                }
                closedBy = readUntilPong(socket, ping, received);
                if (closedBy != null) {
                    break;
                }
            }
            if (closedBy == null) {
                socket.sendClose(1000);
                for (RawWebSocket.Frame frame : socket.finishClosing()) {
                    if (frame.opcode() == RawWebSocket.TEXT) {
                        received.add(frame.text());
                    }
                }
                closedBy = "client 1000";
            }
        }
        if (!log.awaitEnd(id, true)) {
            throw new AssertionError("The server did not end session " + id + " of " + scenario.name()
                    + " within 20 s: calls " + log.calls(id) + ", events " + log.events(id));
        }
        return new Observed(received, closedBy, log.calls(id), log.events(id));
    }

    /**
     * Reads until the pong answering {@code ping} ({@code null}: the session is open) or the server's close frame
     * ({@code server <code>}, answered) or the end of the connection ({@code server ended}).
     */
    private static String readUntilPong(RawWebSocket socket, byte[] ping, List<String> received) throws IOException {
        for (RawWebSocket.Frame frame = socket.next(); frame != null; frame = socket.next()) {
            switch (frame.opcode()) {
                case RawWebSocket.TEXT -> received.add(frame.text());
                case RawWebSocket.PONG -> {
                    if (java.util.Arrays.equals(frame.payload(), ping)) {
                        return null;
                    }
                }
                case RawWebSocket.CLOSE -> {
                    try {
                        socket.sendClose(frame.code());
                    } catch (IOException alreadyGone) {
                        // Netty drops the connection right after the close frame of a protocol error
                    }
                    socket.awaitEnd();
                    return "server " + frame.code();
                }
                default -> {
                }
            }
        }
        return "server ended";
    }

    static Map<String, String> toProperties(Map<String, Observed> observed) {
        Map<String, String> properties = new LinkedHashMap<>();
        observed.forEach((name, o) -> {
            properties.put(name + ".received", String.join(" | ", o.received()));
            properties.put(name + ".closedBy", o.closedBy());
            properties.put(name + ".calls", String.join(" | ", o.calls()));
            properties.put(name + ".events", String.join(" | ", o.events()));
        });
        return properties;
    }

    /** The recorded observations, by scenario name. */
    public static Map<String, Observed> load(Path file) throws IOException {
        Map<String, String> properties = Recordings.load(file);
        Map<String, Observed> observed = new LinkedHashMap<>();
        for (String name : ALL.keySet()) {
            if (!properties.containsKey(name + ".closedBy")) {
                continue;
            }
            observed.put(name, new Observed(split(properties.get(name + ".received")),
                    properties.get(name + ".closedBy"), split(properties.get(name + ".calls")),
                    split(properties.get(name + ".events"))));
        }
        return observed;
    }

    private static List<String> split(String joined) {
        return joined == null || joined.isEmpty() ? List.of() : List.of(joined.split(" \\| ", -1));
    }
}
