package dev.weft.httpserver.stats;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A point-in-time copy of a server's counters. Counters only grow; gauges ({@code connectionsActive},
 * {@code exchangesActive}) go up and down.
 *
 * @param time                when the snapshot was taken
 * @param connectionsAccepted connections accepted since start
 * @param connectionsActive   connections open now
 * @param connectionsRejected connections refused because {@code maxConnections} was reached
 * @param requests            requests parsed and dispatched (including those answered with an error)
 * @param exchangesActive     exchanges in progress now
 * @param bytesReceived       bytes read from clients (after TLS decryption)
 * @param bytesSent           bytes written to clients (before TLS encryption)
 * @param bytesSentZeroCopy   of {@code bytesSent}, bytes sent from files straight to the socket
 *                            ({@code FileChannel.transferTo}) without being copied through the heap: file
 *                            responses over cleartext HTTP/1.1 ({@code Weft.sendFile})
 * @param handlerExceptions   exceptions thrown by handlers and filters
 * @param idleCloses          keep-alive connections closed after the idle timeout
 * @param timeoutCloses       connections closed because a header, body, write or TLS timeout expired, or a
 *                            request body or response moved slower than its minimum data rate
 * @param lowResourcesCloses  connections closed early while the server was short of connections: idle ones
 *                            after {@code lowResourcesIdleTimeout}, and idle or stalled ones that made room
 *                            for a new connection at {@code maxConnections}
 * @param stopCloses          connections a stop closed while an exchange was still in progress on them (after
 *                            the stop's delay, or {@code stop(0)})
 * @param accessLogLinesDropped access log lines dropped because the log's queue was full (the disk could not
 *                            keep up); exchanges never wait for the log
 * @param protocolErrors      rejections by kind (only kinds seen at least once)
 * @param http2               HTTP/2 connection and stream counters
 * @param webSocket           WebSocket session and message counters
 * @param proxy               proxy handler counters (forwarded requests and CONNECT tunnels)
 * @param listeners           connection and request counters of each listener, in the order they were bound
 *                            (the first is the server's {@code getAddress()}); they add up to the server's
 */
public record StatsSnapshot(
        Instant time,
        long connectionsAccepted,
        long connectionsActive,
        long connectionsRejected,
        long requests,
        long exchangesActive,
        long bytesReceived,
        long bytesSent,
        long bytesSentZeroCopy,
        long handlerExceptions,
        long idleCloses,
        long timeoutCloses,
        long lowResourcesCloses,
        long stopCloses,
        long accessLogLinesDropped,
        Map<ProtocolError, Long> protocolErrors,
        Http2 http2,
        WebSocket webSocket,
        Proxy proxy,
        List<Listener> listeners) {

    /** A snapshot without per-listener counters. */
    public StatsSnapshot(Instant time, long connectionsAccepted, long connectionsActive, long connectionsRejected,
                         long requests, long exchangesActive, long bytesReceived, long bytesSent,
                         long bytesSentZeroCopy, long handlerExceptions, long idleCloses, long timeoutCloses,
                         long lowResourcesCloses, long stopCloses, long accessLogLinesDropped,
                         Map<ProtocolError, Long> protocolErrors, Http2 http2, WebSocket webSocket, Proxy proxy) {
        this(time, connectionsAccepted, connectionsActive, connectionsRejected, requests, exchangesActive,
                bytesReceived, bytesSent, bytesSentZeroCopy, handlerExceptions, idleCloses, timeoutCloses,
                lowResourcesCloses, stopCloses, accessLogLinesDropped, protocolErrors, http2, webSocket, proxy,
                List.of());
    }

    /**
     * The counters of one listener.
     *
     * @param scheme              {@code "http"} or {@code "https"}
     * @param address             the address it is bound to
     * @param connectionsAccepted connections accepted on it since start
     * @param connectionsActive   of those, connections open now
     * @param requests            requests received on its connections (including those answered with an error)
     */
    public record Listener(String scheme, InetSocketAddress address, long connectionsAccepted,
                           long connectionsActive, long requests) {

        /** E.g. {@code https://0.0.0.0:8443}. */
        public String name() {
            return scheme + "://" + address.getHostString() + ":" + address.getPort();
        }
    }

    /**
     * HTTP/2 counters.
     *
     * @param connections     connections that spoke HTTP/2 (h2 or h2c) since start
     * @param streamsOpened   streams opened by clients since start
     * @param streamsActive   streams open now
     * @param streamsReset    streams ended by RST_STREAM, sent or received
     * @param goAwaysSent     GOAWAY frames sent (graceful and on errors)
     * @param goAwaysReceived GOAWAY frames received
     */
    public record Http2(long connections, long streamsOpened, long streamsActive, long streamsReset,
                        long goAwaysSent, long goAwaysReceived) {
        /** All zero. */
        public static final Http2 NONE = new Http2(0, 0, 0, 0, 0, 0);
    }

    /**
     * WebSocket counters.
     *
     * @param sessionsOpened      sessions opened since start (opening handshake completed)
     * @param sessionsOverHttp2   of those, sessions opened over HTTP/2 (RFC 8441 extended CONNECT)
     * @param sessionsActive      sessions open now
     * @param messagesReceived    whole data messages received (text and binary)
     * @param messagesSent        whole data messages sent (text and binary)
     * @param protocolCloses      sessions closed because the peer broke a protocol rule or a limit
     *                            (close codes 1002, 1007, 1009)
     */
    public record WebSocket(long sessionsOpened, long sessionsOverHttp2, long sessionsActive, long messagesReceived,
                            long messagesSent, long protocolCloses) {
        /** All zero. */
        public static final WebSocket NONE = new WebSocket(0, 0, 0, 0, 0, 0);
    }

    /**
     * Proxy handler counters.
     *
     * @param requestsForwarded absolute-form requests forwarded to an origin
     * @param tunnelsOpened     CONNECT tunnels established since start
     * @param tunnelsActive     CONNECT tunnels open now
     * @param denied            requests refused by the allow-lists or the authorization hook
     * @param upstreamFailures  requests answered {@code 502} or {@code 504} because the origin failed
     * @param tunnelBytes       bytes relayed through tunnels, both directions
     */
    public record Proxy(long requestsForwarded, long tunnelsOpened, long tunnelsActive, long denied,
                        long upstreamFailures, long tunnelBytes) {
        /** All zero. */
        public static final Proxy NONE = new Proxy(0, 0, 0, 0, 0, 0);
    }

    /** Copies {@code protocolErrors} and {@code listeners}. */
    public StatsSnapshot {
        protocolErrors = Map.copyOf(protocolErrors);
        java.util.Objects.requireNonNull(http2, "http2");
        java.util.Objects.requireNonNull(webSocket, "webSocket");
        java.util.Objects.requireNonNull(proxy, "proxy");
        listeners = List.copyOf(listeners);
    }

    /** Sum of all protocol errors. */
    public long protocolErrorsTotal() {
        return protocolErrors.values().stream().mapToLong(Long::longValue).sum();
    }
}
