package dev.weft.httpserver.stats;

import java.time.Instant;
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
 * @param handlerExceptions   exceptions thrown by handlers and filters
 * @param idleCloses          keep-alive connections closed after the idle timeout
 * @param timeoutCloses       connections closed because a header, body, write or TLS timeout expired
 * @param protocolErrors      rejections by kind (only kinds seen at least once)
 * @param http2               HTTP/2 connection and stream counters
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
        long handlerExceptions,
        long idleCloses,
        long timeoutCloses,
        Map<ProtocolError, Long> protocolErrors,
        Http2 http2) {

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

    /** Copies {@code protocolErrors}. */
    public StatsSnapshot {
        protocolErrors = Map.copyOf(protocolErrors);
        java.util.Objects.requireNonNull(http2, "http2");
    }

    /** Sum of all protocol errors. */
    public long protocolErrorsTotal() {
        return protocolErrors.values().stream().mapToLong(Long::longValue).sum();
    }
}
