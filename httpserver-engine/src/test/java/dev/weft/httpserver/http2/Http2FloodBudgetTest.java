package dev.weft.httpserver.http2;

import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.Http2Config;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.http2.PythonH2.Outcome;
import dev.weft.httpserver.http2.PythonH2.Req;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.TestCertificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The flood budget for frames a client can send without effect (empty DATA on a reset stream, WINDOW_UPDATE(+1)
 * with no data of ours to return credit for): a million of them end in GOAWAY ENHANCE_YOUR_CALM within the
 * budget. And the other side of the rule: well-behaved clients that return credit while they download large
 * bodies on many streams, with small windows so they send thousands of WINDOW_UPDATEs, are never cut off, even
 * under a budget of 20 a second.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class Http2FloodBudgetTest {

    private static final int PROTOCOL_ERROR = 0x1;
    private static final int ENHANCE_YOUR_CALM = 0xb;
    private static final int MILLION = 1_000_000;

    /**
     * A million frames without effect on one connection: GOAWAY ENHANCE_YOUR_CALM, the connection closed long
     * before the million is through, counted as a flood. Prints the server's CPU time for it (the whole JVM's,
     * the client being another process).
     */
    @ParameterizedTest(name = "{0}, tls={1}")
    @CsvSource({"empty-data-on-reset-stream, false", "empty-data-on-reset-stream, true",
            "window-update-connection, false", "window-update-connection, true",
            "window-update-stream, false", "window-update-stream, true"})
    void aMillionFramesWithoutEffectGetEnhanceYourCalm(String mode, boolean tls) throws IOException {
        try (Http2TestServers servers = Http2TestServers.start(ServerConfig.defaults(), Http2TestRoutes.all())) {
            long cpuBefore = processCpuNanos();
            List<String> args = new ArrayList<>(List.of("--port", String.valueOf(servers.port(tls)), "--mode", mode,
                    "--path", "/sha256", "--count", String.valueOf(MILLION)));
            if (tls) {
                args.add("--tls");
            }
            Map<String, Object> out = PythonH2.run("h2_flood.py", args, Duration.ofMinutes(2));
            long cpuMillis = (processCpuNanos() - cpuBefore) / 1_000_000;
            System.out.println("Http2FloodBudgetTest " + mode + (tls ? " over TLS" : " h2c") + ": " + out.get("sent")
                    + " frames written before the server closed, server JVM CPU " + cpuMillis + " ms: " + out);

            @SuppressWarnings("unchecked")
            Map<String, Object> goAway = (Map<String, Object>) out.get("goaway");
            if (goAway != null || !tls) {
                // Over TLS the server closes without reading on (unlike cleartext, where it half-closes and drains a
                // moment), so the client's unread flood makes TCP reset the connection, which may discard the
                // GOAWAY before the client reads it; the server's count below is the proof then.
                assertNotNull(goAway, () -> "no GOAWAY: " + out);
                assertEquals(ENHANCE_YOUR_CALM, ((Number) goAway.get("error_code")).intValue(), out::toString);
            }
            assertTrue(((Number) out.get("sent")).longValue() < MILLION, () -> "the flood went through: " + out);
            if (mode.startsWith("empty-data")) {
                assertEquals(PROTOCOL_ERROR, ((Number) out.get("reset")).intValue(), () -> "the stream was not reset "
                        + "before the flood: " + out);
            }
            StatsSnapshot s = awaitFlood(servers, tls);
            assertTrue(s.protocolErrors().getOrDefault(ProtocolError.HTTP2_FLOOD, 0L) >= 1, s::toString);

            Outcome after = PythonH2.requests(servers.port(tls), tls, Req.get("/status?code=204"));
            assertEquals(204, after.stream(0).status(), after::toString);
        }
    }

    /**
     * h2load downloads 200 responses of 256 KiB, 20 streams at a time, with a 4 KiB stream window and a 16 KiB
     * connection window: it returns credit in thousands of WINDOW_UPDATEs, all for data it received.
     */
    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void h2loadWithSmallWindowsIsNotCutOff(boolean tls) throws IOException {
        try (Http2TestServers servers = Http2TestServers.start(tightBudget(), Http2TestRoutes.all())) {
            ExternalTools.Result r = Http2Cli.h2load(servers.url(tls, "/download?size=262144"), "-n", "200", "-c", "1",
                    "-m", "20", "-w", "12", "-W", "14");
            assertEquals(0, r.exit(), r::describe);
            assertTrue(r.stdout().contains("requests: 200 total, 200 started, 200 done, 200 succeeded, 0 failed"),
                    r::describe);
            assertNoFlood(servers, tls);
        }
    }

    /** nghttp downloads 4 MiB with a 4 KiB stream window and a 16 KiB connection window. */
    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void nghttpWithSmallWindowsIsNotCutOff(boolean tls) throws IOException {
        try (Http2TestServers servers = Http2TestServers.start(tightBudget(), Http2TestRoutes.all())) {
            long size = 4L * 1024 * 1024;
            ExternalTools.Result r = Http2Cli.nghttp(servers.url(tls, "/download?size=" + size), "-w", "12", "-W", "14",
                    "-v");
            assertEquals(0, r.exit(), r::describe);
            assertTrue(r.stdout().contains("send WINDOW_UPDATE"), r::describe);
            assertTrue(!r.stdout().contains("recv GOAWAY") && !r.stdout().contains("recv RST_STREAM"), r::describe);
            assertNoFlood(servers, tls);
        }
    }

    /**
     * curl downloads 20 MB, then (over TLS) 20 streams of 1 MB at once in one connection. Not in parallel over
     * h2c: curl 7.88 fails to reuse a prior-knowledge connection for a second stream ("Error in the HTTP2 framing
     * layer" before any frame is exchanged; curl issue 10634, fixed in 8.0).
     */
    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void curlDownloadsAreNotCutOff(boolean tls) throws IOException {
        try (Http2TestServers servers = Http2TestServers.start(tightBudget(), Http2TestRoutes.all())) {
            Http2Cli.Curl big = Http2Cli.curl(tls, servers.url(tls, "/download?size=20000000"), "-o", "/dev/null");
            assertEquals(0, big.exit(), big::toString);
            assertEquals(200, big.status(), big::toString);
            if (tls) {
                List<String> many = new ArrayList<>(List.of("--parallel", "--parallel-max", "20"));
                for (int i = 0; i < 19; i++) {
                    many.addAll(List.of("-o", "/dev/null", servers.url(tls, "/download?size=1048576&i=" + i)));
                }
                many.addAll(List.of("-o", "/dev/null")); // for the last URL, which curl() adds
                Http2Cli.Curl r = Http2Cli.curl(tls, servers.url(tls, "/download?size=1048576&i=last"),
                        many.toArray(String[]::new));
                assertEquals(0, r.exit(), r::toString);
                assertEquals(20, r.result().stdout().split("@@curl 2 200", -1).length - 1, r::toString);
            }
            assertNoFlood(servers, tls);
        }
    }

    /** Python h2 downloads 30 responses of 512 KiB on one connection (its default 64 KiB windows). */
    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void pythonH2ManyStreamsAreNotCutOff(boolean tls) throws IOException {
        try (Http2TestServers servers = Http2TestServers.start(tightBudget(), Http2TestRoutes.all())) {
            List<Req> reqs = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                reqs.add(Req.get("/download?size=524288&i=" + i));
            }
            Outcome o = PythonH2.requests(servers.port(tls), tls, reqs);
            for (int i = 0; i < 30; i++) {
                assertEquals(200, o.stream(i).status(), o::toString);
                assertEquals(524288, o.stream(i).bodyLength(), o::toString);
            }
            assertEquals(List.of(), o.goaways(), o::toString);
            assertNoFlood(servers, tls);
        }
    }

    /** The JDK's HttpClient downloads 20 MB and 20 streams of 1 MB at once over TLS. */
    @Test
    void jdkHttpClientDownloadsAreNotCutOff() throws Exception {
        try (Http2TestServers servers = Http2TestServers.start(tightBudget(), Http2TestRoutes.all())) {
            try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                    .sslContext(TestCertificates.get().clientContext()).connectTimeout(Duration.ofSeconds(5)).build()) {
                assertEquals(Http2TestRoutes.patternDigest(20_000_000), download(servers, client, 20_000_000));
                List<java.util.concurrent.CompletableFuture<HttpResponse<byte[]>>> many = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    many.add(client.sendAsync(HttpRequest.newBuilder(URI.create(servers.url(true,
                            "/download?size=1048576&i=" + i))).timeout(Duration.ofSeconds(60)).build(),
                            HttpResponse.BodyHandlers.ofByteArray()));
                }
                for (var f : many) {
                    HttpResponse<byte[]> r = f.get(60, TimeUnit.SECONDS);
                    assertEquals(200, r.statusCode());
                    assertEquals(HttpClient.Version.HTTP_2, r.version());
                    assertEquals(1048576, r.body().length);
                }
            }
            assertNoFlood(servers, true);
        }
    }

    private static String download(Http2TestServers servers, HttpClient client, long size) throws Exception {
        HttpResponse<InputStream> down = client.send(HttpRequest.newBuilder(
                URI.create(servers.url(true, "/download?size=" + size))).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(HttpClient.Version.HTTP_2, down.version());
        return Http2TestRoutes.lengthAndDigest(down.body());
    }

    /** A control-frame budget of 20 a second (bursts of 40), a tenth of the default. */
    private static ServerConfig tightBudget() {
        return ServerConfig.builder().http2(Http2Config.builder().maxControlFramesPerSecond(20).build()).build();
    }

    private static void assertNoFlood(Http2TestServers servers, boolean tls) {
        StatsSnapshot s = Weft.stats(servers.server(tls));
        assertEquals(0L, s.protocolErrors().getOrDefault(ProtocolError.HTTP2_FLOOD, 0L), s::toString);
        assertEquals(0L, s.protocolErrors().getOrDefault(ProtocolError.HTTP2_CONNECTION_ERROR, 0L), s::toString);
    }

    private static StatsSnapshot awaitFlood(Http2TestServers servers, boolean tls) {
        return Await.value("the flood to be counted", () -> Weft.stats(servers.server(tls)),
                s -> s.protocolErrors().getOrDefault(ProtocolError.HTTP2_FLOOD, 0L) > 0);
    }

    private static long processCpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }
}
