package dev.weft.micrometer;

import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.websocket.WebSocketHandler;
import dev.weft.httpserver.websocket.WebSocketListener;
import dev.weft.httpserver.websocket.WebSocketSession;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.ref.WeakReference;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/** Meters over a real engine server and over hand-made snapshots; no Spring involved. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftMetricsTest {

    /**
     * Meters one binding registers: 5 gauges, 26 counters (16 HTTP, 5 WebSocket, 5 proxy), one counter per
     * error kind.
     */
    private static final int METERS = 5 + 27 + ProtocolError.values().length;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
        registry.close();
    }

    private int start(ServerConfig config) throws IOException {
        server = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, config);
        server.createContext("/hello", ex -> {
            ex.getRequestBody().readAllBytes();
            byte[] body = "hello".getBytes(StandardCharsets.US_ASCII);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.createContext("/boom", ex -> {
            throw new IllegalStateException("handler failure on purpose");
        });
        server.start();
        return server.getAddress().getPort();
    }

    /** Sends raw bytes on a new connection and reads until the server closes it. */
    private static String exchange(int port, String request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(5_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream response = new ByteArrayOutputStream();
            in.transferTo(response);
            return response.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    }

    private double counter(String name, String... tags) {
        return registry.get(name).tags(tags).functionCounter().count();
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }

    /** Waits until {@code value} reaches {@code expected}; the engine adds byte counts in batches. */
    private static void eventually(Supplier<Double> value, double expected) {
        Await.value("the meter to read " + expected, value, v -> v == expected);
    }

    private static void eventuallyPositive(Supplier<Double> value) {
        Await.value("the meter to be positive", value, v -> v > 0);
    }

    @Test
    void countersFollowTheTrafficOfARealServer() throws Exception {
        int port = start(ServerConfig.defaults());
        new WeftMetrics(() -> Weft.stats(server), Tags.empty(), Duration.ZERO)
                .bindTo(registry);
        assertThat(counter("weft.requests")).isZero();

        for (int i = 0; i < 3; i++) {
            assertThat(exchange(port, get("/hello"))).startsWith("HTTP/1.1 200").endsWith("hello");
        }
        assertThat(exchange(port, get("/boom"))).startsWith("HTTP/1.1 500");

        eventually(() -> counter("weft.requests"), 4);
        eventually(() -> counter("weft.connections.accepted"), 4);
        eventually(() -> counter("weft.handler.exceptions"), 1);
        eventually(() -> gauge("weft.connections.active"), 0);
        eventually(() -> gauge("weft.exchanges.active"), 0);
        assertThat(counter("weft.connections.rejected")).isZero();
        eventuallyPositive(() -> counter("weft.bytes.received"));
        eventuallyPositive(() -> counter("weft.bytes.sent"));
        // each response carries at least its status line and five body bytes
        assertThat(counter("weft.bytes.sent")).isGreaterThan(4 * 20);
    }

    @Test
    void http2TrafficIsCounted() throws Exception {
        int port = start(ServerConfig.defaults()); // h2c with prior knowledge is on by default
        new WeftMetrics(() -> Weft.stats(server), Tags.empty(), Duration.ZERO)
                .bindTo(registry);
        String url = "http://127.0.0.1:" + port + "/hello";

        // Two curl runs, one connection and one stream each. (curl 7.88 cannot reuse a prior-knowledge
        // connection for a second URL: curl/curl#10634, fixed in 8.0.)
        for (int i = 0; i < 2; i++) {
            assertThat(curl("--http2-prior-knowledge", "-w", " %{http_version}", url)).isEqualTo("hello 2");
        }

        eventually(() -> counter("weft.http2.connections"), 2);
        eventually(() -> counter("weft.http2.streams.opened"), 2);
        eventually(() -> gauge("weft.http2.streams.active"), 0);
        assertThat(counter("weft.http2.streams.reset")).isZero();
        eventually(() -> counter("weft.requests"), 2);
    }

    @Test
    void webSocketTrafficIsCounted() throws Exception {
        server = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        server.createContext("/ws", WebSocketHandler.builder(handshake -> new WebSocketListener() {
            @Override
            public void onText(WebSocketSession session, String message) throws IOException {
                session.sendText(message);
            }
        }).build());
        server.start();
        new WeftMetrics(() -> Weft.stats(server), Tags.empty(), Duration.ZERO)
                .bindTo(registry);
        CompletableFuture<String> echoed = new CompletableFuture<>();
        CompletableFuture<Integer> serverClose = new CompletableFuture<>();

        java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
        try {
            WebSocket ws = client.newWebSocketBuilder().buildAsync(
                    URI.create("ws://127.0.0.1:" + server.getAddress().getPort() + "/ws"), new WebSocket.Listener() {
                        @Override
                        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                            echoed.complete(data.toString());
                            webSocket.request(1);
                            return null;
                        }

                        @Override
                        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                            serverClose.complete(statusCode);
                            return null;
                        }
                    }).get(10, TimeUnit.SECONDS);
            ws.sendText("ping me", true).get(10, TimeUnit.SECONDS);
            assertThat(echoed.get(10, TimeUnit.SECONDS)).isEqualTo("ping me");

            eventually(() -> gauge("weft.websocket.sessions.active"), 1);
            assertThat(counter("weft.websocket.sessions.opened", "protocol", "http1")).isEqualTo(1);
            assertThat(counter("weft.websocket.sessions.opened", "protocol", "http2")).isZero();
            eventually(() -> counter("weft.websocket.messages", "direction", "received"), 1);
            eventually(() -> counter("weft.websocket.messages", "direction", "sent"), 1);
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "").get(10, TimeUnit.SECONDS);
            assertThat(serverClose.get(10, TimeUnit.SECONDS)).as("the server answers the close").isEqualTo(1000);
        } finally {
            // close() alone waits until every WebSocket of the client has closed: after a failure above it
            // would hang, and the timeout would hide the failure.
            client.shutdownNow();
            client.close();
        }
        eventually(() -> gauge("weft.websocket.sessions.active"), 0);
        assertThat(counter("weft.websocket.protocol.closes")).isZero();
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
    void malformedRequestsCountUnderTheirErrorKind() throws Exception {
        int port = start(ServerConfig.defaults());
        WeftMetrics.of(server, Tags.empty()).bindTo(registry);

        assertThat(exchange(port, "GET /hello HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\n"
                + "Content-Length: 2\r\nConnection: close\r\n\r\nab")).startsWith("HTTP/1.1 400");

        eventually(() -> counter("weft.errors", "kind", ProtocolError.BAD_CONTENT_LENGTH.key()), 1);
        assertThat(counter("weft.errors", "kind", ProtocolError.BAD_HOST.key())).isZero();
    }

    @Test
    void idleKeepAliveConnectionsCountAsClosedForIdleness() throws Exception {
        int port = start(ServerConfig.builder().idleTimeout(Duration.ofMillis(200)).build());
        WeftMetrics.of(server, Tags.empty()).bindTo(registry);

        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            // the server answers, then closes the connection once it has been idle for 200 ms
            assertThat(new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1))
                    .startsWith("HTTP/1.1 200");
        }
        eventually(() -> counter("weft.connections.closed", "reason", "idle"), 1);
        assertThat(counter("weft.connections.closed", "reason", "timeout")).isZero();
    }

    @Test
    void connectionsClosedWhileShortOfConnectionsCountAsLowResources() throws Exception {
        // Two keep-alive connections are more than half of a limit of 2: short of connections, they may idle 200 ms.
        int port = start(ServerConfig.builder().maxConnections(2).lowResourcesThreshold(0.5)
                .lowResourcesIdleTimeout(Duration.ofMillis(200)).build());
        WeftMetrics.of(server, Tags.empty()).bindTo(registry);

        try (Socket a = new Socket("127.0.0.1", port); Socket b = new Socket("127.0.0.1", port)) {
            for (Socket s : List.of(a, b)) {
                s.setSoTimeout(5_000);
                s.getOutputStream().write("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
            }
            for (Socket s : List.of(a, b)) {
                assertThat(new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1))
                        .startsWith("HTTP/1.1 200");
            }
        }
        eventually(() -> counter("weft.connections.closed", "reason", "low_resources"), 2);
        assertThat(counter("weft.connections.closed", "reason", "idle")).isZero();
    }

    @Test
    void gaugesShowAnExchangeInProgress() throws Exception {
        server = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        server.createContext("/slow", ex -> {
            entered.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        server.start();
        int port = server.getAddress().getPort();
        WeftMetrics.of(server, Tags.empty()).bindTo(registry);

        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write(get("/slow").getBytes(StandardCharsets.US_ASCII));
            assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();

            eventually(() -> gauge("weft.exchanges.active"), 1);
            assertThat(gauge("weft.connections.active")).isEqualTo(1);

            release.countDown();
            assertThat(new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1))
                    .startsWith("HTTP/1.1 204");
        }
        eventually(() -> gauge("weft.exchanges.active"), 0);
        eventually(() -> gauge("weft.connections.active"), 0);
    }

    @Test
    void aServerNameTagsEveryMeterOfThatServer() throws Exception {
        start(ServerConfig.defaults());
        WeftMetrics.of(server, "api").bindTo(registry);

        assertThat(registry.getMeters()).hasSize(METERS)
                .allSatisfy(m -> assertThat(m.getId().getTag(WeftMetrics.SERVER_TAG)).isEqualTo("api"));
    }

    @Test
    void ofCurrentReadsWhicheverServerItIsGivenAtEachRead() throws Exception {
        AtomicReference<HttpServer> current = new AtomicReference<>();
        WeftMetrics.ofCurrent(current::get, Tags.of(WeftMetrics.SERVER_TAG, "app")).bindTo(registry);
        assertThat(counter("weft.requests")).as("no server yet").isZero();

        int port = start(ServerConfig.defaults());
        current.set(server);
        for (int i = 0; i < 2; i++) {
            assertThat(exchange(port, get("/hello"))).startsWith("HTTP/1.1 200");
        }
        eventually(() -> counter("weft.requests"), 2);

        // a restart: the old server stops and a new one, with counters of its own, takes its place
        server.stop(0);
        current.set(null);
        assertThat(counter("weft.requests")).as("no server: the last values").isEqualTo(2);
        port = start(ServerConfig.defaults());
        current.set(server);
        assertThat(exchange(port, get("/hello"))).startsWith("HTTP/1.1 200");
        eventually(() -> counter("weft.requests"), 1);
    }

    @Test
    void everyErrorKindExistsAtZeroBeforeAnyTraffic() {
        new WeftMetrics(() -> snapshot(0, Map.of()), Tags.empty()).bindTo(registry);

        for (ProtocolError kind : ProtocolError.values()) {
            assertThat(counter("weft.errors", "kind", kind.key())).as(kind.key()).isZero();
        }
        assertThat(registry.get("weft.errors").functionCounters()).hasSize(ProtocolError.values().length);
        assertThat(counter("weft.connections.closed", "reason", "idle")).isZero();
        assertThat(counter("weft.connections.closed", "reason", "timeout")).isZero();
        assertThat(counter("weft.connections.closed", "reason", "low_resources")).isZero();
    }

    @Test
    void eachFieldOfTheSnapshotReachesItsOwnMeter() {
        Map<ProtocolError, Long> errors = new EnumMap<>(ProtocolError.class);
        errors.put(ProtocolError.BAD_CHUNK, 12L);
        errors.put(ProtocolError.TLS_HANDSHAKE, 13L);
        StatsSnapshot s = new StatsSnapshot(Instant.now(), 1, 2, 3, 4, 5, 6, 7, 30, 8, 9, 10, 28, 29, 31, errors,
                new StatsSnapshot.Http2(11, 12, 13, 14, 15, 16), new StatsSnapshot.WebSocket(17, 5, 18, 19, 20, 21),
                new StatsSnapshot.Proxy(22, 23, 24, 25, 26, 27));
        new WeftMetrics(() -> s, Tags.empty()).bindTo(registry);

        assertThat(counter("weft.connections.accepted")).isEqualTo(1);
        assertThat(gauge("weft.connections.active")).isEqualTo(2);
        assertThat(counter("weft.connections.rejected")).isEqualTo(3);
        assertThat(counter("weft.requests")).isEqualTo(4);
        assertThat(gauge("weft.exchanges.active")).isEqualTo(5);
        assertThat(counter("weft.bytes.received")).isEqualTo(6);
        assertThat(counter("weft.bytes.sent")).isEqualTo(7);
        assertThat(counter("weft.bytes.sent.zero.copy")).isEqualTo(30);
        assertThat(counter("weft.handler.exceptions")).isEqualTo(8);
        assertThat(counter("weft.connections.closed", "reason", "idle")).isEqualTo(9);
        assertThat(counter("weft.connections.closed", "reason", "timeout")).isEqualTo(10);
        assertThat(counter("weft.connections.closed", "reason", "low_resources")).isEqualTo(28);
        assertThat(counter("weft.connections.closed", "reason", "stop")).isEqualTo(29);
        assertThat(counter("weft.access.log.lines.dropped")).isEqualTo(31);
        assertThat(counter("weft.errors", "kind", "bad_chunk")).isEqualTo(12);
        assertThat(counter("weft.errors", "kind", "tls_handshake")).isEqualTo(13);
        assertThat(counter("weft.errors", "kind", "bad_host")).isZero();
        assertThat(counter("weft.http2.connections")).isEqualTo(11);
        assertThat(counter("weft.http2.streams.opened")).isEqualTo(12);
        assertThat(gauge("weft.http2.streams.active")).isEqualTo(13);
        assertThat(counter("weft.http2.streams.reset")).isEqualTo(14);
        assertThat(counter("weft.http2.goaways", "direction", "sent")).isEqualTo(15);
        assertThat(counter("weft.http2.goaways", "direction", "received")).isEqualTo(16);
        assertThat(counter("weft.websocket.sessions.opened", "protocol", "http1")).isEqualTo(17 - 5);
        assertThat(counter("weft.websocket.sessions.opened", "protocol", "http2")).isEqualTo(5);
        assertThat(gauge("weft.websocket.sessions.active")).isEqualTo(18);
        assertThat(counter("weft.websocket.messages", "direction", "received")).isEqualTo(19);
        assertThat(counter("weft.websocket.messages", "direction", "sent")).isEqualTo(20);
        assertThat(counter("weft.websocket.protocol.closes")).isEqualTo(21);
        assertThat(counter("weft.proxy.requests.forwarded")).isEqualTo(22);
        assertThat(counter("weft.proxy.tunnels.opened")).isEqualTo(23);
        assertThat(gauge("weft.proxy.tunnels.active")).isEqualTo(24);
        assertThat(counter("weft.proxy.denied")).isEqualTo(25);
        assertThat(counter("weft.proxy.upstream.failures")).isEqualTo(26);
        assertThat(counter("weft.proxy.tunnel.bytes")).isEqualTo(27);
    }

    @Test
    void webSocketAndProxyMetersExistAtZeroBeforeAnyTraffic() {
        new WeftMetrics(() -> new StatsSnapshot(Instant.now(), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, Map.of(),
                StatsSnapshot.Http2.NONE, StatsSnapshot.WebSocket.NONE, StatsSnapshot.Proxy.NONE), Tags.empty())
                .bindTo(registry);

        assertThat(registry.get("weft.websocket.sessions.opened").functionCounters()).hasSize(2);
        assertThat(registry.get("weft.websocket.messages").functionCounters()).hasSize(2);
        for (String name : List.of("weft.websocket.sessions.opened", "weft.websocket.messages",
                "weft.websocket.protocol.closes", "weft.proxy.requests.forwarded", "weft.proxy.tunnels.opened",
                "weft.proxy.denied", "weft.proxy.upstream.failures", "weft.proxy.tunnel.bytes")) {
            assertThat(registry.get(name).functionCounters()).as(name)
                    .allSatisfy(c -> assertThat(c.count()).isZero());
        }
        assertThat(registry.get("weft.websocket.sessions.active").meter()).isInstanceOf(Gauge.class);
        assertThat(registry.get("weft.proxy.tunnels.active").meter()).isInstanceOf(Gauge.class);
        assertThat(gauge("weft.websocket.sessions.active")).isZero();
        assertThat(gauge("weft.proxy.tunnels.active")).isZero();
        assertThat(registry.get("weft.proxy.tunnel.bytes").meter().getId().getBaseUnit()).isEqualTo(BaseUnits.BYTES);
    }

    @Test
    void http2MetersExistAtZeroBeforeAnyTraffic() {
        new WeftMetrics(() -> snapshot(0, Map.of()), Tags.empty()).bindTo(registry);

        assertThat(counter("weft.http2.connections")).isZero();
        assertThat(counter("weft.http2.streams.opened")).isZero();
        assertThat(gauge("weft.http2.streams.active")).isZero();
        assertThat(counter("weft.http2.streams.reset")).isZero();
        assertThat(registry.get("weft.http2.goaways").functionCounters()).hasSize(2);
        assertThat(counter("weft.http2.goaways", "direction", "sent")).isZero();
        assertThat(counter("weft.http2.goaways", "direction", "received")).isZero();
        assertThat(registry.get("weft.http2.streams.active").meter()).isInstanceOf(Gauge.class);
        assertThat(registry.get("weft.http2.connections").meter()).isInstanceOf(FunctionCounter.class);
    }

    @Test
    void everyMeterHasADescriptionAndTheCommonTags() {
        new WeftMetrics(() -> snapshot(0, Map.of()), Tags.of("app", "demo", "server", "main"))
                .bindTo(registry);

        List<Meter> meters = registry.getMeters();
        // 5 gauges, 25 counters (closed has four reasons, goaways and messages two directions, sessions opened
        // two protocols), one counter per error kind
        assertThat(meters).hasSize(METERS);
        for (Meter m : meters) {
            assertThat(m.getId().getName()).startsWith("weft.");
            assertThat(m.getId().getDescription()).as(m.getId().getName()).isNotBlank();
            assertThat(m.getId().getTags()).as(m.getId().getName())
                    .contains(Tag.of("app", "demo"), Tag.of("server", "main"));
        }
        assertThat(registry.get("weft.bytes.sent").meter().getId().getBaseUnit()).isEqualTo(BaseUnits.BYTES);
        assertThat(registry.get("weft.bytes.received").meter().getId().getBaseUnit()).isEqualTo(BaseUnits.BYTES);
        assertThat(registry.get("weft.connections.active").meter()).isInstanceOf(Gauge.class);
        assertThat(registry.get("weft.requests").meter()).isInstanceOf(FunctionCounter.class);
    }

    @Test
    void aScrapeOfEveryMeterTakesOneSnapshotPerMaxAge() {
        AtomicInteger snapshots = new AtomicInteger();
        AtomicLong clock = new AtomicLong(1_000_000_000L);
        new WeftMetrics(() -> snapshot(snapshots.incrementAndGet(), Map.of()), Tags.empty(),
                Duration.ofMillis(100), clock::get).bindTo(registry);

        scrape();
        assertThat(snapshots).hasValue(1);
        assertThat(counter("weft.requests")).isEqualTo(1);

        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(99));
        scrape();
        assertThat(snapshots).hasValue(1);

        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(1));
        scrape();
        assertThat(snapshots).hasValue(2);
        assertThat(counter("weft.requests")).isEqualTo(2);
    }

    private void scrape() {
        for (Meter m : registry.getMeters()) {
            m.measure().forEach(measurement -> measurement.getValue());
        }
    }

    @Test
    void aFailingSupplierKeepsTheLastValues() {
        AtomicInteger calls = new AtomicInteger();
        new WeftMetrics(() -> {
            if (calls.incrementAndGet() > 1) {
                throw new IllegalStateException("server gone");
            }
            return snapshot(7, Map.of());
        }, Tags.empty(), Duration.ZERO).bindTo(registry);

        assertThat(counter("weft.requests")).isEqualTo(7);
        assertThat(counter("weft.requests")).isEqualTo(7);
        assertThat(calls.get()).isGreaterThan(1);
    }

    @Test
    void metersReadZeroUntilTheSupplierHasStatistics() {
        AtomicInteger calls = new AtomicInteger();
        new WeftMetrics(() -> calls.incrementAndGet() > 2 ? snapshot(5, Map.of()) : null, Tags.empty(),
                Duration.ZERO).bindTo(registry);

        assertThat(counter("weft.requests")).isZero();
        assertThat(gauge("weft.connections.active")).isZero();
        assertThat(counter("weft.requests")).isEqualTo(5);
    }

    @Test
    void metersKeepWorkingWhenTheBinderIsNoLongerReferenced() {
        bindUnreferenced();
        // the sentinel: a collection that cleared a weakly held object would have cleared the binder too
        WeakReference<Object> sentinel = new WeakReference<>(new Object());
        Await.until("a garbage collection to clear a weakly held object", () -> {
            System.gc();
            return sentinel.get() == null;
        });
        assertThat(counter("weft.requests")).isEqualTo(42);
        assertThat(gauge("weft.connections.active")).isEqualTo(42);
    }

    private void bindUnreferenced() {
        new WeftMetrics(() -> snapshot(42, Map.of()), Tags.empty()).bindTo(registry);
    }

    @Test
    void unbindRemovesOnlyTheMetersOfThatBinding() {
        WeftMetrics first = new WeftMetrics(() -> snapshot(1, Map.of()), Tags.of("server", "a"));
        WeftMetrics second = new WeftMetrics(() -> snapshot(2, Map.of()), Tags.of("server", "b"));
        first.bindTo(registry);
        second.bindTo(registry);

        first.unbindFrom(registry);

        assertThat(registry.find("weft.requests").tag("server", "a").functionCounter()).isNull();
        assertThat(registry.get("weft.requests").tag("server", "b").functionCounter().count()).isEqualTo(2);
        assertThat(registry.getMeters()).hasSize(METERS);
    }

    /** A snapshot whose every number is {@code n}. */
    private static StatsSnapshot snapshot(long n, Map<ProtocolError, Long> errors) {
        return new StatsSnapshot(Instant.now(), n, n, n, n, n, n, n, n, n, n, n, n, n, n, errors,
                new StatsSnapshot.Http2(n, n, n, n, n, n), new StatsSnapshot.WebSocket(n, 0, n, n, n, n),
                new StatsSnapshot.Proxy(n, n, n, n, n, n));
    }
}
