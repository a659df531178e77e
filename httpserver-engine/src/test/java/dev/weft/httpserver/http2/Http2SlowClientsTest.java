package dev.weft.httpserver.http2;

import dev.weft.httpserver.Weft;
import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.hpack.HeaderField;
import dev.weft.httpserver.http2.PythonH2.Outcome;
import dev.weft.httpserver.http2.PythonH2.Req;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.TestCertificates;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Slow clients per stream: a request body that arrives slower than {@code minRequestDataRate} while its handler
 * waits for it, and a response whose stream window the client keeps shut (the HTTP/2 slow read), are reset after
 * the grace period, while ordinary requests on the same connection and on another one are answered throughout.
 * Time is the subject here: the bounds on when a reset comes are generous guards against a hang, never tight.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class Http2SlowClientsTest {

    private static final int CANCEL = 0x8;
    private static final Duration GRACE = Duration.ofSeconds(1);
    /** Far more than the grace period and the rate allow: a failure guard only. */
    private static final double LATEST_RESET_SECONDS = GRACE.toSeconds() + 10;
    private static final int ORDINARY_SIZE = 1000;

    private static ServerConfig slowClientLimits() {
        return ServerConfig.builder().dataRateGracePeriod(GRACE).minRequestDataRate(240).minResponseDataRate(240)
                .build();
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    @SuppressWarnings("unchecked")
    void slowStreamsAreResetWhileOrdinaryRequestsAreAnswered(boolean tls) throws Exception {
        try (Http2TestServers servers = Http2TestServers.start(slowClientLimits(), Http2TestRoutes.all())) {
            List<String> args = new ArrayList<>(List.of("--port", String.valueOf(servers.port(tls)),
                    "--body-path", "/sha256", "--download-path", "/download?size=100000",
                    "--ordinary-path", "/download?size=" + ORDINARY_SIZE, "--interval", "2", "--timeout", "40"));
            if (tls) {
                args.add("--tls");
            }
            ExternalTools.Running script = PythonH2.start("h2_slow_streams.py", args);
            AtomicReference<Map<String, Object>> result = new AtomicReference<>();
            Thread waiter = Thread.ofVirtual()
                    .start(() -> result.set(PythonH2.json(script.await(Duration.ofSeconds(90)))));

            // Meanwhile, ordinary requests on another connection, one after the other until the script is done.
            int answered = 0;
            try (HttpClient client = HttpClient.newBuilder()
                    .version(tls ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1)
                    .sslContext(TestCertificates.get().clientContext()).connectTimeout(Duration.ofSeconds(5)).build()) {
                while (waiter.isAlive()) {
                    HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(URI.create(servers.url(tls,
                            "/download?size=" + ORDINARY_SIZE + "&other=" + answered))).timeout(Duration.ofSeconds(10))
                            .build(), HttpResponse.BodyHandlers.ofByteArray());
                    assertEquals(200, r.statusCode());
                    assertEquals(ORDINARY_SIZE, r.body().length);
                    answered++;
                }
            }
            waiter.join();
            Map<String, Object> out = result.get();
            assertNotNull(out, "the script's result");
            System.out.println("Http2SlowClientsTest tls=" + tls + ": " + answered + " requests answered on another "
                    + "connection; " + summary(out));

            Map<String, Object> slowBody = (Map<String, Object>) out.get("slow_body");
            assertEquals(CANCEL, number(slowBody.get("reset")), () -> "slow request body not reset: " + summary(out));
            assertWithinGrace(seconds(slowBody.get("at")), out);
            Map<String, Object> slowRead = (Map<String, Object>) out.get("slow_read");
            assertEquals("200", slowRead.get("status"), () -> "the head goes out before the body: " + summary(out));
            assertEquals(CANCEL, number(slowRead.get("reset")), () -> "slow reader not reset: " + summary(out));
            assertWithinGrace(seconds(slowRead.get("at")), out);
            assertNull(out.get("goaway"), () -> summary(out));

            List<Map<String, Object>> ordinary = (List<Map<String, Object>>) out.get("ordinary");
            int finished = 0;
            for (Map<String, Object> o : ordinary) {
                if (o.get("finished_at") == null) {
                    continue; // the one still in flight when both slow streams were reset
                }
                finished++;
                assertEquals("200", o.get("status"), () -> "an ordinary request on the same connection: " + o);
                assertEquals(ORDINARY_SIZE, number(o.get("length")), () -> "an ordinary request: " + o);
                assertEquals(Boolean.TRUE, o.get("ended"), () -> "an ordinary request: " + o);
            }
            assertTrue(finished >= 1 && ordinary.size() - finished <= 1, () -> summary(out));
            assertTrue(answered >= 1, "no request on another connection was answered");

            StatsSnapshot s = Weft.stats(servers.server(tls));
            assertEquals(1L, s.protocolErrors().getOrDefault(ProtocolError.REQUEST_DATA_RATE, 0L), s::toString);
            assertEquals(1L, s.protocolErrors().getOrDefault(ProtocolError.RESPONSE_DATA_RATE, 0L), s::toString);
        }
    }

    /**
     * An RFC 8441 tunnel's reads wait for messages, which is no slowness of the client: it is not paced. The client
     * idles for five grace periods between its messages.
     */
    @Test
    void aTunnelThatWaitsForMessagesIsNotPaced() throws Exception {
        Duration grace = Duration.ofMillis(200);
        HttpHandler echo = ex -> {
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            InputStream in = ex.getRequestBody();
            byte[] buf = new byte[1024];
            for (int n; (n = in.read(buf)) >= 0; ) {
                out.write(buf, 0, n);
                out.flush();
            }
            ex.close();
        };
        try (TestServer server = TestServer.builder().config(ServerConfig.builder().dataRateGracePeriod(grace).build())
                .handle("/chat", echo).start();
             FrameClient c = FrameClient.connect(server.port())) {
            c.send(new Frame.HeadersFrame(1, c.block(List.of(new HeaderField(":method", "CONNECT"),
                    new HeaderField(":protocol", "websocket"), new HeaderField(":scheme", "http"),
                    new HeaderField(":path", "/chat"), new HeaderField(":authority", "localhost"),
                    new HeaderField("sec-websocket-version", "13"))), false, true));
            Frame.HeadersFrame head = c.await(Frame.HeadersFrame.class);
            assertNotNull(head);
            for (String message : List.of("one", "two")) {
                Thread.sleep(5 * grace.toMillis()); // a pace, the subject: a tunnel idle between messages
                c.send(new Frame.DataFrame(1, message.getBytes(StandardCharsets.US_ASCII), false));
                Frame f = c.await(Frame.DataFrame.class);
                assertTrue(f instanceof Frame.DataFrame d
                        && new String(d.data(), StandardCharsets.US_ASCII).equals(message), () -> "echo: " + f);
            }
            StatsSnapshot s = server.stats();
            assertEquals(0L, s.protocolErrors().getOrDefault(ProtocolError.REQUEST_DATA_RATE, 0L), s::toString);
        }
    }

    /** The connection limit counts connections, not streams: under a limit of one, one connection carries 50. */
    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void theConnectionLimitCountsConnectionsNotStreams(boolean tls) throws IOException {
        ServerConfig oneConnection = ServerConfig.builder().maxConnections(1).build();
        try (Http2TestServers servers = Http2TestServers.start(oneConnection, Http2TestRoutes.all())) {
            List<Req> requests = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                requests.add(Req.get("/download?size=100000&i=" + i));
            }
            Outcome o = PythonH2.requests(servers.port(tls), tls, requests);
            for (int i = 0; i < 50; i++) {
                assertEquals(200, o.stream(i).status(), o::toString);
                assertEquals(100000, o.stream(i).bodyLength(), o::toString);
            }
        }
    }

    private static void assertWithinGrace(double at, Map<String, Object> out) {
        assertTrue(at >= GRACE.toMillis() / 1000.0 * 0.9 && at <= LATEST_RESET_SECONDS,
                () -> "reset at " + at + " s, expected after the grace period of " + GRACE.toSeconds()
                        + " s and well within " + LATEST_RESET_SECONDS + " s: " + summary(out));
    }

    /** The script's result without the (long) list of ordinary requests. */
    @SuppressWarnings("unchecked")
    private static String summary(Map<String, Object> out) {
        Map<String, Object> m = new LinkedHashMap<>(out);
        List<Object> ordinary = (List<Object>) m.remove("ordinary");
        m.put("ordinary requests", ordinary == null ? 0 : ordinary.size());
        if (ordinary != null && !ordinary.isEmpty()) {
            m.put("last ordinary", ordinary.get(ordinary.size() - 1));
        }
        return m.toString();
    }

    private static int number(Object o) {
        return o == null ? -1 : ((Number) o).intValue();
    }

    private static double seconds(Object o) {
        return o == null ? Double.NaN : ((Number) o).doubleValue();
    }
}
