package dev.weft.httpserver.http2;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.Http2Config;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.http2.PythonH2.Outcome;
import dev.weft.httpserver.http2.PythonH2.Req;
import dev.weft.httpserver.http2.PythonH2.Stream;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Flow control, stream limits and connection lifecycle over HTTP/2, driven by raw Python h2 clients: a slow
 * reader does not stall the other streams, streams beyond SETTINGS_MAX_CONCURRENT_STREAMS are refused, rapid
 * reset ends in GOAWAY ENHANCE_YOUR_CALM, and stop(delay) sends GOAWAY NO_ERROR while in-flight streams finish.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class Http2StreamLimitsClientTest {

    private static final int REFUSED_STREAM = 0x7;
    private static final int ENHANCE_YOUR_CALM = 0xb;

    private Http2TestServers servers;

    @AfterEach
    void stop() {
        if (servers != null) {
            servers.close();
        }
    }

    private Http2TestServers start(ServerConfig config) throws IOException {
        servers = Http2TestServers.start(config, Http2TestRoutes.all());
        return servers;
    }

    /**
     * Stream A uploads 2 MB to a handler that reads nothing until stream B's handler has answered: A's window
     * fills and waits. Stream B, opened 0.5 s later on the same connection (a pace, so that A's window is full
     * first), uploads 256 KiB and must get its answer: A's unread body must neither block the connection's
     * reading nor use up the window B needs. Were B stalled behind A, A's handler would give up waiting.
     */
    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void slowReaderDoesNotStallOtherStreams(boolean tls) throws IOException {
        CountDownLatch bAnswered = new CountDownLatch(1);
        Map<String, HttpHandler> routes = new LinkedHashMap<>(Http2TestRoutes.all());
        routes.put("/read-after-b", ex -> {
            boolean released = await(bAnswered);
            if (released) {
                Http2TestRoutes.sha256(ex);
            } else {
                TestServer.respond(ex, 500, "stream B was not answered while A's body waited unread");
            }
        });
        routes.put("/sha256-then-release-a", ex -> {
            Http2TestRoutes.sha256(ex);
            bAnswered.countDown();
        });
        servers = Http2TestServers.start(ServerConfig.defaults(), routes);
        long aSize = 2L * 1024 * 1024;
        long bSize = 256L * 1024;
        Outcome o = PythonH2.requests(servers.port(tls), tls,
                Req.of("POST", "/read-after-b").bodySize(aSize),
                Req.of("POST", "/sha256-then-release-a").bodySize(bSize).delay(0.5));
        assertNull(o.error(), o::toString);
        Stream a = o.stream(0);
        Stream b = o.stream(1);
        assertEquals(200, b.status(), o::toString);
        assertTrue(b.ended(), o::toString);
        assertEquals(Http2TestRoutes.patternDigest(bSize), b.body());
        assertEquals(200, a.status(), o::toString);
        assertTrue(a.ended(), o::toString);
        assertEquals(Http2TestRoutes.patternDigest(aSize), a.body());
        assertTrue(b.finishedAt() <= a.finishedAt(), () -> "B finished after the slow stream A: " + o);
    }

    /**
     * With maxConcurrentStreams 2 and two streams whose handlers answer only once the server has reset a stream,
     * a third stream is refused with RST_STREAM REFUSED_STREAM (so a client may retry it); a fourth, opened once
     * the first two are done, succeeds.
     */
    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void streamsBeyondTheConcurrencyLimitAreRefused(boolean tls) throws IOException {
        Map<String, HttpHandler> routes = new LinkedHashMap<>(Http2TestRoutes.all());
        routes.put("/held-until-a-reset", ex -> {
            Await.until("the server to refuse a stream", () -> Weft.stats(ex.getHttpContext().getServer())
                    .http2().streamsReset() >= 1);
            TestServer.respond(ex, 200, "held");
        });
        servers = Http2TestServers.start(
                ServerConfig.builder().http2(Http2Config.builder().maxConcurrentStreams(2).build()).build(), routes);
        Outcome o = PythonH2.requests(servers.port(tls), tls,
                Req.get("/held-until-a-reset"), Req.get("/held-until-a-reset"), Req.get("/echo?third=1"),
                Req.get("/echo?after=1").after(0, 1));
        assertNull(o.error(), o::toString);
        assertEquals(Integer.valueOf(REFUSED_STREAM), o.stream(2).reset(),
                () -> "third stream not refused with REFUSED_STREAM: " + o);
        assertNull(o.stream(2).status(), () -> "a refused stream must not have been answered: " + o);
        for (int i : new int[] {0, 1, 3}) {
            assertEquals(200, o.stream(i).status(), o::toString);
            assertTrue(o.stream(i).ended(), o::toString);
        }
        assertTrue(o.goaways().isEmpty(), () -> "refusing a stream must not end the connection: " + o);
    }

    /** Waits for the latch up to the test's generous limit; false if it did not open. */
    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(Await.DEFAULT_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Rapid reset (CVE-2023-44487): streams opened and cancelled at once, far beyond maxResetsPerSecond (100,
     * bursts of 200), end in GOAWAY ENHANCE_YOUR_CALM; the server serves the next connection normally.
     */
    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void rapidResetGetsEnhanceYourCalmAndTheServerStaysHealthy(boolean tls) throws IOException {
        start(ServerConfig.defaults());
        Map<String, Object> r = PythonH2.run("h2_rapid_reset.py", tls
                        ? List.of("--port", String.valueOf(servers.port(true)), "--tls", "--count", "5000")
                        : List.of("--port", String.valueOf(servers.port(false)), "--count", "5000"),
                Duration.ofSeconds(60));
        System.out.println("rapid reset (tls=" + tls + "): " + r.entrySet().stream()
                .filter(e -> !e.getKey().equals("_stderr")).toList());
        assertNull(r.get("error"), r::toString);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> goaways = (List<Map<String, Object>>) (List<?>) r.get("goaways");
        assertFalse(goaways.isEmpty(), () -> "no GOAWAY after a rapid reset flood: " + r);
        assertEquals(ENHANCE_YOUR_CALM, ((Number) goaways.get(0).get("error_code")).intValue(), r::toString);

        Http2Cli.Curl next = Http2Cli.curl(tls, servers.url(tls, "/echo?after-flood=1"));
        assertEquals(0, next.exit(), next::toString);
        assertEquals("2", next.httpVersion(), next::toString);
        assertEquals(200, next.status(), next::toString);
        Outcome o = PythonH2.requests(servers.port(tls), tls, Req.get("/echo?after-flood=2"));
        assertEquals(200, o.stream(0).status(), o::toString);
        assertTrue(o.goaways().isEmpty(), o::toString);
    }

    /**
     * stop(delay) with a stream in flight: the client gets GOAWAY NO_ERROR at once (before its response; the
     * handler answers only once the server has sent it), the in-flight stream still completes, and stop returns
     * when it has, long before the delay.
     */
    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void stopSendsGoawayAndLetsTheInFlightStreamFinish(boolean tls) throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        Map<String, HttpHandler> routes = new LinkedHashMap<>(Http2TestRoutes.all());
        routes.put("/in-flight", ex -> {
            entered.countDown();
            Await.until("the server to send GOAWAY", () -> Weft.stats(ex.getHttpContext().getServer())
                    .http2().goAwaysSent() >= 1);
            TestServer.respond(ex, 200, "finished in flight");
        });
        servers = Http2TestServers.start(ServerConfig.defaults(), routes);
        HttpServer server = servers.server(tls);
        ExternalTools.Running client = PythonH2.start("h2_requests.py",
                PythonH2.requestArgs(servers.port(tls), tls, 20, List.of(Req.get("/in-flight"))));
        try {
            Await.latch("the handler to run", entered);
            // a delay no test waits for: stop must return when the stream ends, long before it
            CompletableFuture.runAsync(() -> server.stop(60)).get(30, TimeUnit.SECONDS);

            Outcome o = new Outcome(PythonH2.json(client.await(Duration.ofSeconds(30))));
            assertNull(o.error(), o::toString);
            Stream s = o.stream(0);
            System.out.println("stop with a stream in flight (tls=" + tls + "): goaways " + o.goaways()
                    + "; stream finished at " + s.finishedAt() + " s");
            assertEquals(200, s.status(), o::toString);
            assertTrue(s.ended(), () -> "in-flight stream did not complete: " + o);
            assertEquals("finished in flight", s.body());
            assertFalse(o.goaways().isEmpty(), () -> "no GOAWAY on stop: " + o);
            Map<String, Object> first = o.goaways().get(0);
            assertEquals(0, ((Number) first.get("error_code")).intValue(), () -> "GOAWAY not NO_ERROR: " + o);
            assertTrue(((Number) first.get("last_stream_id")).intValue() >= 1,
                    () -> "GOAWAY's last stream id excludes the in-flight stream: " + o);
            assertTrue(((Number) first.get("at")).doubleValue() <= s.finishedAt(),
                    () -> "GOAWAY came only after the in-flight response, not when stop began: " + o);
        } finally {
            client.kill();
        }
    }
}
