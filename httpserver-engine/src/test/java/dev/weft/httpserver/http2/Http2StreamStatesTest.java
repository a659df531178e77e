package dev.weft.httpserver.http2;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.hpack.HeaderField;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stream state machine (RFC 9113 §5.1, §8.1) as a raw Python client sees it: frames that a stream's state
 * makes errors get their exact error, frames it allows or makes ignorable get nothing, against a handler that
 * reads the request body and one that answers without reading it (whose stream is then half-closed (local) when
 * the frames arrive). Each case ends with a PING whose answer proves the server processed the frames before it.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class Http2StreamStatesTest {

    private static final int NO_ERROR = 0x0;
    private static final int PROTOCOL_ERROR = 0x1;
    private static final int FLOW_CONTROL_ERROR = 0x3;
    private static final int STREAM_CLOSED = 0x5;
    /** Below the 3000 bytes drain_limit sends after the response. */
    private static final long MAX_DRAIN = 1024;

    private static Http2TestServers servers;

    @BeforeAll
    static void start() throws IOException {
        ServerConfig config = ServerConfig.builder().maxDrainSize(MAX_DRAIN).build();
        servers = Http2TestServers.start(config, Map.of("/reads", Http2StreamStatesTest::readsBody,
                "/ignores", Http2StreamStatesTest::ignoresBody));
    }

    @AfterAll
    static void stop() {
        if (servers != null) {
            servers.close();
        }
    }

    static void readsBody(HttpExchange ex) throws IOException {
        long n = TestServer.drain(ex.getRequestBody());
        TestServer.respond(ex, 200, "read " + n);
    }

    static void ignoresBody(HttpExchange ex) throws IOException {
        byte[] ok = "ok".getBytes(StandardCharsets.US_ASCII);
        ex.sendResponseHeaders(200, ok.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(ok);
        }
    }

    /** What the server must answer to a scenario of h2_stream_states.py. */
    private record Expect(String scenario, Integer rst, Integer goAway, boolean ignoringHandlerOnly) {
        static Expect rst(String scenario, int code) {
            return new Expect(scenario, code, null, false);
        }

        static Expect goAway(String scenario, int code) {
            return new Expect(scenario, null, code, false);
        }

        static Expect nothing(String scenario) {
            return new Expect(scenario, null, null, false);
        }
    }

    private static final List<Expect> CASES = List.of(
            Expect.rst("content_length_exceeded", PROTOCOL_ERROR),
            Expect.rst("content_length_short_at_end", PROTOCOL_ERROR),
            Expect.nothing("content_length_matches"),
            Expect.rst("trailers_without_end_stream", PROTOCOL_ERROR),
            Expect.rst("pseudo_header_in_trailers", PROTOCOL_ERROR),
            Expect.nothing("trailers_end_the_request"),
            Expect.rst("window_update_overflow", FLOW_CONTROL_ERROR),
            Expect.rst("data_after_client_reset", STREAM_CLOSED),
            Expect.rst("headers_after_client_reset", STREAM_CLOSED),
            Expect.nothing("window_update_after_client_reset"),
            Expect.goAway("data_after_the_stream_closed", STREAM_CLOSED),
            Expect.goAway("headers_after_the_stream_closed", STREAM_CLOSED),
            Expect.nothing("window_update_after_the_stream_closed"),
            Expect.nothing("rst_after_the_stream_closed"),
            Expect.rst("data_after_end_stream", STREAM_CLOSED),
            new Expect("drain_limit", NO_ERROR, null, true),
            new Expect("expect_continue_not_asked", NO_ERROR, null, true));

    @TestFactory
    Stream<DynamicContainer> everyStateCaseGetsItsAnswer() {
        List<DynamicContainer> containers = new ArrayList<>();
        for (boolean tls : new boolean[] {false, true}) {
            for (boolean ignoring : new boolean[] {false, true}) {
                String name = (ignoring ? "handler ignores the body" : "handler reads the body")
                        + (tls ? ", TLS" : ", h2c");
                // lazily: the script runs when the container's tests do
                Stream<DynamicTest> tests = Stream.of(0).flatMap(x -> cases(tls, ignoring));
                containers.add(DynamicContainer.dynamicContainer(name, tests));
            }
        }
        return containers.stream();
    }

    /** Runs every case in one script run (a connection each), then checks each as a test of its own. */
    @SuppressWarnings("unchecked")
    private static Stream<DynamicTest> cases(boolean tls, boolean ignoring) {
        List<Expect> cases = CASES.stream().filter(c -> ignoring || !c.ignoringHandlerOnly()).toList();
        List<String> args = new ArrayList<>(List.of("--port", String.valueOf(servers.port(tls)), "--path",
                ignoring ? "/ignores" : "/reads"));
        if (tls) {
            args.add("--tls");
        }
        if (ignoring) {
            args.add("--early");
        }
        cases.forEach(c -> args.add(c.scenario()));
        Map<String, Object> results = PythonH2.run("h2_stream_states.py", args, Duration.ofMinutes(2));
        return cases.stream().map(c -> DynamicTest.dynamicTest(c.scenario(),
                () -> check(c, (Map<String, Object>) results.get(c.scenario()))));
    }

    @SuppressWarnings("unchecked")
    private static void check(Expect c, Map<String, Object> result) {
        assertNotNull(result, c.scenario() + ": no result");
        assertNull(result.get("error"), () -> c.scenario() + ": " + result);
        List<Map<String, Object>> after = (List<Map<String, Object>>) result.get("after");
        List<Integer> resets = codes(after, "RSTSTREAM");
        List<Integer> goAways = codes(after, "GOAWAY");
        if (c.goAway() != null) {
            assertEquals(List.of(c.goAway()), goAways, () -> c.scenario() + ": GOAWAY expected: " + result);
            assertEquals(true, result.get("closed"), () -> c.scenario() + ": connection still open: " + result);
            return;
        }
        assertEquals(List.of(), goAways, () -> c.scenario() + ": no GOAWAY expected: " + result);
        assertEquals(c.rst() == null ? List.of() : List.of(c.rst()), resets,
                () -> c.scenario() + ": RST_STREAM expected " + c.rst() + ": " + result);
        assertEquals(true, result.get("sentinel"), () -> c.scenario() + ": the PING after it was not answered: "
                + result);
        if (c.scenario().equals("expect_continue_not_asked")) {
            List<Object> statuses = new ArrayList<>();
            for (Map<String, Object> f : after) {
                if ("HEADERS".equals(f.get("type"))) {
                    for (Object field : (List<Object>) f.get("fields")) {
                        if (((List<Object>) field).get(0).equals(":status")) {
                            statuses.add(((List<Object>) field).get(1));
                        }
                    }
                }
            }
            assertEquals(List.of("200"), statuses, () -> "no 100 Continue, only the final response: " + result);
        }
        if (c.scenario().equals("content_length_matches") || c.scenario().equals("trailers_end_the_request")) {
            List<Map<String, Object>> all = new ArrayList<>((List<Map<String, Object>>) result.get("before"));
            all.addAll(after);
            assertTrue(all.stream().anyMatch(f -> ((List<Object>) f.get("flags")).contains("END_STREAM")
                    && (f.get("type").equals("DATA") || f.get("type").equals("HEADERS"))),
                    () -> c.scenario() + ": the response did not end: " + result);
        }
    }

    private static List<Integer> codes(List<Map<String, Object>> frames, String type) {
        return frames.stream().filter(f -> type.equals(f.get("type")))
                .map(f -> ((Number) f.get("error_code")).intValue()).toList();
    }

    /**
     * A stream whose response is complete holds its place (half-closed (local)) until the request ends, then is
     * released: its concurrency slot and its entry in the statistics.
     */
    @Test
    void aStreamWithACompleteResponseIsReleasedWhenTheRequestEnds() throws IOException {
        try (FrameClient c = FrameClient.connect(servers.port(false))) {
            c.send(new Frame.HeadersFrame(1, c.requestBlock("POST", "/ignores",
                    new HeaderField("content-length", "3")), false, true));
            FrameClient.Response r = c.response(1);
            assertEquals(200, r.status());
            assertEquals("ok", r.body());
            // the sentinel: a PING answered after the response's last frame
            c.send(new Frame.PingFrame(false, 6));
            assertNotNull(c.await(Frame.PingFrame.class));
            assertEquals(1, Weft.stats(servers.server(false)).http2().streamsActive(),
                    "half-closed (local): still open");

            c.send(new Frame.DataFrame(1, "abc".getBytes(StandardCharsets.US_ASCII), true));
            c.send(new Frame.PingFrame(false, 7));
            Frame.PingFrame pong = c.await(Frame.PingFrame.class);
            assertNotNull(pong);
            assertEquals(0, awaitActiveStreams(0), "both directions ended: released");
        }
    }

    /**
     * A stream that only waits for the rest of its request (its exchange over) keeps no connection open: without
     * an exchange at work the connection is idle, and the idle timeout ends it with GOAWAY NO_ERROR.
     */
    @Test
    void aStreamOnlyWaitingForItsRequestDoesNotKeepAnIdleConnection() throws IOException {
        ServerConfig config = ServerConfig.builder().idleTimeout(Duration.ofMillis(500)).build();
        try (TestServer server = TestServer.builder().config(config)
                .handle("/ignores", Http2StreamStatesTest::ignoresBody).start();
             FrameClient c = FrameClient.connect(server.port())) {
            c.send(new Frame.HeadersFrame(1, c.requestBlock("POST", "/ignores"), false, true));
            assertEquals(200, c.response(1).status());
            Frame.GoAwayFrame goAway = c.await(Frame.GoAwayFrame.class);
            assertNotNull(goAway, "no GOAWAY before the connection closed");
            assertEquals(ErrorCode.NO_ERROR, goAway.error());
            assertTrue(c.closed(), "connection still open after GOAWAY");
        }
    }

    /** The active HTTP/2 streams of the cleartext server once they equal {@code expected}. */
    private static long awaitActiveStreams(long expected) {
        return Await.value(expected + " active streams", () -> Weft.stats(servers.server(false)).http2().streamsActive(),
                n -> n == expected);
    }
}
