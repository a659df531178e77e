package dev.weft.micrometer;

import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.StatsSnapshot;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * A Weft server's statistics as Micrometer meters: gauges for what is open now ({@code weft.connections.active},
 * {@code weft.exchanges.active}, {@code weft.http2.streams.active}, {@code weft.websocket.sessions.active},
 * {@code weft.proxy.tunnels.active}) and function counters for everything that
 * only grows ({@code weft.requests}, {@code weft.bytes.received}, {@code weft.errors{kind}},
 * {@code weft.connections.closed{reason}}, {@code weft.http2.connections}, {@code weft.http2.goaways{direction}}, …), including WebSocket sessions and
 * messages ({@code weft.websocket.*}) and the proxy handler ({@code weft.proxy.*}). Needs nothing but
 * Micrometer and the engine, so any framework, or plain code, binds it:
 *
 * <pre>{@code
 * WeftMetrics.of(server, "api").bindTo(registry);   // every meter tagged server=api
 * }</pre>
 *
 * <p>One binder meters one server. Bind one per server to the same registry with a different
 * {@value #SERVER_TAG} tag each (the Spring Boot starter tags its servers {@code application} and
 * {@code management}): meters with the same name and tags are one meter in a registry, so a second server bound
 * with the same tags would not be counted. A framework that replaces its engine server on a restart binds
 * {@link #ofCurrent} instead, which looks the server up on each read.
 *
 * <p>All meters read one cached {@link StatsSnapshot}, taken again only when the cached one is older than the
 * maximum age (100 ms by default), so a scrape of every meter costs one snapshot rather than one per meter.
 * {@code weft.errors} is registered for every {@link ProtocolError} kind, so each exists (at 0) from the start.
 *
 * <p>When the supplier returns {@code null} or throws (say, the server is not running), the meters keep their
 * last values, zeros before the first snapshot. The registry keeps this binder's snapshot cache reachable
 * through the gauges, so the binder need not be held by the caller.
 */
public final class WeftMetrics implements MeterBinder {

    /** The key of the tag that tells the servers bound to one registry apart: {@value}. */
    public static final String SERVER_TAG = "server";

    /** How old the cached snapshot may get before a meter read takes a new one. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofMillis(100);

    private static final StatsSnapshot EMPTY =
            new StatsSnapshot(Instant.EPOCH, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, Map.of(), StatsSnapshot.Http2.NONE,
            StatsSnapshot.WebSocket.NONE, StatsSnapshot.Proxy.NONE);

    private final SnapshotCache cache;
    private final Tags tags;
    private final List<Registration> registrations = new ArrayList<>();

    /**
     * Meters over {@code stats}, each carrying {@code tags}.
     *
     * @param stats supplies a fresh snapshot on each call, e.g. {@code server::stats} of a
     *              Weft server; {@code null} when none is available
     * @param tags  common tags added to every meter (may be empty)
     */
    public WeftMetrics(Supplier<StatsSnapshot> stats, Iterable<Tag> tags) {
        this(stats, tags, DEFAULT_MAX_AGE, System::nanoTime);
    }

    /**
     * Meters over {@code stats}, each carrying {@code tags}, re-reading {@code stats} at most once per
     * {@code maxAge} ({@link Duration#ZERO} reads it on every meter read).
     */
    public WeftMetrics(Supplier<StatsSnapshot> stats, Iterable<Tag> tags, Duration maxAge) {
        this(stats, tags, maxAge, System::nanoTime);
    }

    WeftMetrics(Supplier<StatsSnapshot> stats, Iterable<Tag> tags, Duration maxAge, LongSupplier nanoClock) {
        Objects.requireNonNull(stats, "stats");
        Objects.requireNonNull(maxAge, "maxAge");
        if (maxAge.isNegative()) {
            throw new IllegalArgumentException("maxAge must not be negative: " + maxAge);
        }
        this.cache = new SnapshotCache(stats, maxAge.toNanos(), Objects.requireNonNull(nanoClock, "nanoClock"));
        this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
    }

    /**
     * Meters over a Weft {@link HttpServer} (one created by {@link Weft}, or by {@code HttpServer.create()}
     * with Weft as the provider).
     *
     * @throws IllegalArgumentException if {@code server} is not a Weft server
     */
    public static WeftMetrics of(HttpServer server, Iterable<Tag> tags) {
        Weft.stats(server); // fail now rather than at the first scrape
        return new WeftMetrics(() -> Weft.stats(server), tags);
    }

    /**
     * Meters over a Weft {@link HttpServer}, each tagged {@value #SERVER_TAG}{@code =serverName}.
     *
     * @throws IllegalArgumentException if {@code server} is not a Weft server
     */
    public static WeftMetrics of(HttpServer server, String serverName) {
        return of(server, Tags.of(SERVER_TAG, serverName));
    }

    /**
     * Meters over whichever server {@code server} supplies at each read: the engine server a framework's web
     * server runs now, say, which a restart replaces. A {@code null} or a server that is not Weft's reads as no
     * statistics (the meters keep their last values). Give {@code tags} a {@value #SERVER_TAG} tag to tell this
     * server from others bound to the same registry.
     */
    public static WeftMetrics ofCurrent(Supplier<? extends HttpServer> server, Iterable<Tag> tags) {
        Objects.requireNonNull(server, "server");
        return new WeftMetrics(() -> {
            HttpServer current = server.get();
            return current != null && Weft.isWeft(current) ? Weft.stats(current) : null;
        }, tags);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        List<Meter> meters = new ArrayList<>();
        meters.add(gauge(registry, "weft.connections.active", "Connections open now",
                StatsSnapshot::connectionsActive));
        meters.add(gauge(registry, "weft.exchanges.active", "Exchanges (requests) in progress now",
                StatsSnapshot::exchangesActive));

        meters.add(counter(registry, "weft.connections.accepted", "Connections accepted", null, Tags.empty(),
                StatsSnapshot::connectionsAccepted));
        meters.add(counter(registry, "weft.connections.rejected",
                "Connections refused because the connection limit was reached", null, Tags.empty(),
                StatsSnapshot::connectionsRejected));
        String closed = "Connections closed by the server after the idle timeout (reason=idle), because a header, "
                + "body, write or TLS handshake timeout expired or a minimum data rate was not met (reason=timeout), "
                + "early while it was short of connections (reason=low_resources), or by a stop while an exchange "
                + "was in progress (reason=stop)";
        meters.add(counter(registry, "weft.connections.closed", closed, null, Tags.of("reason", "idle"),
                StatsSnapshot::idleCloses));
        meters.add(counter(registry, "weft.connections.closed", closed, null, Tags.of("reason", "timeout"),
                StatsSnapshot::timeoutCloses));
        meters.add(counter(registry, "weft.connections.closed", closed, null, Tags.of("reason", "low_resources"),
                StatsSnapshot::lowResourcesCloses));
        meters.add(counter(registry, "weft.connections.closed", closed, null, Tags.of("reason", "stop"),
                StatsSnapshot::stopCloses));
        meters.add(counter(registry, "weft.requests",
                "Requests received, including those rejected with an error status", null, Tags.empty(),
                StatsSnapshot::requests));
        meters.add(counter(registry, "weft.bytes.received", "Bytes read from clients (after TLS decryption)",
                BaseUnits.BYTES, Tags.empty(), StatsSnapshot::bytesReceived));
        meters.add(counter(registry, "weft.bytes.sent", "Bytes written to clients (before TLS encryption)",
                BaseUnits.BYTES, Tags.empty(), StatsSnapshot::bytesSent));
        meters.add(counter(registry, "weft.bytes.sent.zero.copy",
                "Of the bytes written to clients, those sent from files without copying (FileChannel.transferTo)",
                BaseUnits.BYTES, Tags.empty(), StatsSnapshot::bytesSentZeroCopy));
        meters.add(counter(registry, "weft.handler.exceptions", "Exceptions thrown by handlers and filters",
                null, Tags.empty(), StatsSnapshot::handlerExceptions));
        meters.add(counter(registry, "weft.access.log.lines.dropped",
                "Access log lines dropped because the log's queue was full", null, Tags.empty(),
                StatsSnapshot::accessLogLinesDropped));
        meters.add(counter(registry, "weft.http2.connections", "Connections that spoke HTTP/2 (h2 or h2c)", null,
                Tags.empty(), s -> s.http2().connections()));
        meters.add(counter(registry, "weft.http2.streams.opened", "HTTP/2 streams opened by clients", null,
                Tags.empty(), s -> s.http2().streamsOpened()));
        meters.add(gauge(registry, "weft.http2.streams.active", "HTTP/2 streams open now",
                s -> s.http2().streamsActive()));
        meters.add(counter(registry, "weft.http2.streams.reset",
                "HTTP/2 streams ended by RST_STREAM, sent or received", null, Tags.empty(),
                s -> s.http2().streamsReset()));
        meters.add(counter(registry, "weft.http2.goaways",
                "HTTP/2 GOAWAY frames sent (direction=sent) or received (direction=received)", null,
                Tags.of("direction", "sent"), s -> s.http2().goAwaysSent()));
        meters.add(counter(registry, "weft.http2.goaways",
                "HTTP/2 GOAWAY frames sent (direction=sent) or received (direction=received)", null,
                Tags.of("direction", "received"), s -> s.http2().goAwaysReceived()));
        for (ProtocolError kind : ProtocolError.values()) {
            meters.add(counter(registry, "weft.errors",
                    "Requests or connections rejected for a protocol error, by kind", null,
                    Tags.of("kind", kind.key()), s -> s.protocolErrors().getOrDefault(kind, 0L)));
        }
        bindWebSocket(registry, meters);
        bindProxy(registry, meters);
        synchronized (registrations) {
            registrations.add(new Registration(registry, List.copyOf(meters)));
        }
    }

    private void bindWebSocket(MeterRegistry registry, List<Meter> meters) {
        meters.add(gauge(registry, "weft.websocket.sessions.active", "WebSocket sessions open now",
                s -> s.webSocket().sessionsActive()));
        String opened = "WebSocket sessions opened (handshake completed), over HTTP/1.1 (protocol=http1) or "
                + "HTTP/2 extended CONNECT (protocol=http2)";
        meters.add(counter(registry, "weft.websocket.sessions.opened", opened, null, Tags.of("protocol", "http1"),
                s -> s.webSocket().sessionsOpened() - s.webSocket().sessionsOverHttp2()));
        meters.add(counter(registry, "weft.websocket.sessions.opened", opened, null, Tags.of("protocol", "http2"),
                s -> s.webSocket().sessionsOverHttp2()));
        String messages = "Whole WebSocket data messages (text and binary) received (direction=received) or sent "
                + "(direction=sent)";
        meters.add(counter(registry, "weft.websocket.messages", messages, null, Tags.of("direction", "received"),
                s -> s.webSocket().messagesReceived()));
        meters.add(counter(registry, "weft.websocket.messages", messages, null, Tags.of("direction", "sent"),
                s -> s.webSocket().messagesSent()));
        meters.add(counter(registry, "weft.websocket.protocol.closes",
                "WebSocket sessions closed because the peer broke a protocol rule or a limit (1002, 1007, 1009)",
                null, Tags.empty(), s -> s.webSocket().protocolCloses()));
    }

    private void bindProxy(MeterRegistry registry, List<Meter> meters) {
        meters.add(counter(registry, "weft.proxy.requests.forwarded",
                "Absolute-form requests the proxy handler forwarded to an origin", null, Tags.empty(),
                s -> s.proxy().requestsForwarded()));
        meters.add(counter(registry, "weft.proxy.tunnels.opened", "CONNECT tunnels established", null,
                Tags.empty(), s -> s.proxy().tunnelsOpened()));
        meters.add(gauge(registry, "weft.proxy.tunnels.active", "CONNECT tunnels open now",
                s -> s.proxy().tunnelsActive()));
        meters.add(counter(registry, "weft.proxy.denied",
                "Proxy requests refused by the allow-lists or the authorization hook", null, Tags.empty(),
                s -> s.proxy().denied()));
        meters.add(counter(registry, "weft.proxy.upstream.failures",
                "Proxy requests answered 502 or 504 because the origin failed", null, Tags.empty(),
                s -> s.proxy().upstreamFailures()));
        meters.add(counter(registry, "weft.proxy.tunnel.bytes",
                "Bytes relayed through CONNECT tunnels, both directions", BaseUnits.BYTES, Tags.empty(), s -> s.proxy().tunnelBytes()));
    }

    /** Removes from {@code registry} the meters an earlier {@link #bindTo} registered there. */
    public void unbindFrom(MeterRegistry registry) {
        List<Meter> toRemove = new ArrayList<>();
        synchronized (registrations) {
            registrations.removeIf(r -> {
                if (r.registry() == registry) {
                    toRemove.addAll(r.meters());
                    return true;
                }
                return false;
            });
        }
        toRemove.forEach(registry::remove);
    }

    private Meter gauge(MeterRegistry registry, String name, String description, ToLongFunction<StatsSnapshot> f) {
        return Gauge.builder(name, cache, c -> f.applyAsLong(c.get()))
                .description(description)
                .tags(tags)
                // the registry's strong hold on the cache keeps the function counters below alive too
                .strongReference(true)
                .register(registry);
    }

    private Meter counter(MeterRegistry registry, String name, String description, String baseUnit, Tags extra,
                          ToLongFunction<StatsSnapshot> f) {
        return FunctionCounter.builder(name, cache, c -> f.applyAsLong(c.get()))
                .description(description)
                .baseUnit(baseUnit)
                .tags(tags.and(extra))
                .register(registry);
    }

    private record Registration(MeterRegistry registry, List<Meter> meters) {
    }

    /** The last snapshot and when it was taken; re-reads the supplier when it is older than the maximum age. */
    private static final class SnapshotCache {
        private final Supplier<StatsSnapshot> source;
        private final long maxAgeNanos;
        private final LongSupplier nanoClock;
        private volatile Timed current;

        SnapshotCache(Supplier<StatsSnapshot> source, long maxAgeNanos, LongSupplier nanoClock) {
            this.source = source;
            this.maxAgeNanos = maxAgeNanos;
            this.nanoClock = nanoClock;
        }

        StatsSnapshot get() {
            Timed c = current;
            long now = nanoClock.getAsLong();
            if (c != null && now - c.nanos() < maxAgeNanos) {
                return c.snapshot();
            }
            // Concurrent readers may both refresh; that costs one extra snapshot, never a wrong value.
            StatsSnapshot fresh;
            try {
                fresh = source.get();
            } catch (RuntimeException e) {
                fresh = null; // a meter read must not fail a whole scrape
            }
            if (fresh == null) {
                // no statistics now (e.g. the server is not running): keep the last values, zeros if none yet
                return c != null ? c.snapshot() : EMPTY;
            }
            current = new Timed(fresh, now);
            return fresh;
        }
    }

    private record Timed(StatsSnapshot snapshot, long nanos) {
    }
}
