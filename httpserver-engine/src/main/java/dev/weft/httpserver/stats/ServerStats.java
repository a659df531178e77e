package dev.weft.httpserver.stats;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/**
 * Live counters of one server, updated by connection threads without locking; read them with
 * {@link #snapshot()}.
 */
public final class ServerStats {

    private final LongAdder connectionsAccepted = new LongAdder();
    private final LongAdder connectionsActive = new LongAdder();
    private final LongAdder connectionsRejected = new LongAdder();
    private final LongAdder requests = new LongAdder();
    private final LongAdder exchangesActive = new LongAdder();
    private final LongAdder bytesReceived = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder bytesSentZeroCopy = new LongAdder();
    private final LongAdder handlerExceptions = new LongAdder();
    private final LongAdder idleCloses = new LongAdder();
    private final LongAdder timeoutCloses = new LongAdder();
    private final LongAdder lowResourcesCloses = new LongAdder();
    private final LongAdder stopCloses = new LongAdder();
    private final LongAdder accessLogLinesDropped = new LongAdder();
    private final LongAdder h2Connections = new LongAdder();
    private final LongAdder streamsOpened = new LongAdder();
    private final LongAdder streamsClosed = new LongAdder();
    private final LongAdder streamsReset = new LongAdder();
    private final LongAdder goAwaysSent = new LongAdder();
    private final LongAdder goAwaysReceived = new LongAdder();
    private final LongAdder wsOpened = new LongAdder();
    private final LongAdder wsOverHttp2 = new LongAdder();
    private final LongAdder wsClosed = new LongAdder();
    private final LongAdder wsMessagesReceived = new LongAdder();
    private final LongAdder wsMessagesSent = new LongAdder();
    private final LongAdder wsProtocolCloses = new LongAdder();
    private final LongAdder proxyForwarded = new LongAdder();
    private final LongAdder tunnelsOpened = new LongAdder();
    private final LongAdder tunnelsClosed = new LongAdder();
    private final LongAdder proxyDenied = new LongAdder();
    private final LongAdder upstreamFailures = new LongAdder();
    private final LongAdder tunnelBytes = new LongAdder();
    private final LongAdder[] protocolErrors = new LongAdder[ProtocolError.values().length];
    private final ClientEventSummary clientEvents;
    /** One per listener bound, in the order they were bound. */
    private final List<ListenerStats> listeners = new CopyOnWriteArrayList<>();

    /** Creates zeroed counters; client events are summarised at {@code INFO} at most once a minute per kind. */
    public ServerStats() {
        this(new ClientEventSummary(java.util.concurrent.TimeUnit.MINUTES.toNanos(1), System::nanoTime));
    }

    ServerStats(ClientEventSummary clientEvents) {
        for (int i = 0; i < protocolErrors.length; i++) {
            protocolErrors[i] = new LongAdder();
        }
        this.clientEvents = clientEvents;
    }

    /** A consistent-enough copy of every counter. */
    public StatsSnapshot snapshot() {
        Map<ProtocolError, Long> errors = new EnumMap<>(ProtocolError.class);
        for (ProtocolError e : ProtocolError.values()) {
            long n = protocolErrors[e.ordinal()].sum();
            if (n > 0) {
                errors.put(e, n);
            }
        }
        long closed = streamsClosed.sum(); // read before opened: a stream counted closed was counted opened
        long opened = streamsOpened.sum();
        long zeroCopy = bytesSentZeroCopy.sum(); // read before sent: bytes counted here were counted there first
        return new StatsSnapshot(Instant.now(), connectionsAccepted.sum(), connectionsActive.sum(),
                connectionsRejected.sum(), requests.sum(), exchangesActive.sum(), bytesReceived.sum(),
                bytesSent.sum(), zeroCopy, handlerExceptions.sum(), idleCloses.sum(), timeoutCloses.sum(),
                lowResourcesCloses.sum(), stopCloses.sum(), accessLogLinesDropped.sum(), errors,
                new StatsSnapshot.Http2(h2Connections.sum(), opened, Math.max(0, opened - closed),
                        streamsReset.sum(), goAwaysSent.sum(), goAwaysReceived.sum()),
                webSocket(), proxy(), listeners.stream().map(ListenerStats::snapshot).toList());
    }

    /**
     * Adds the counters of a listener just bound to {@code address}, reported in {@link StatsSnapshot#listeners()}
     * after those added before.
     *
     * @param scheme {@code "http"} or {@code "https"}
     */
    public ListenerStats listener(String scheme, InetSocketAddress address) {
        ListenerStats l = new ListenerStats(scheme, address);
        listeners.add(l);
        return l;
    }

    private StatsSnapshot.WebSocket webSocket() {
        long closed = wsClosed.sum();
        long opened = wsOpened.sum();
        return new StatsSnapshot.WebSocket(opened, wsOverHttp2.sum(), Math.max(0, opened - closed),
                wsMessagesReceived.sum(), wsMessagesSent.sum(), wsProtocolCloses.sum());
    }

    private StatsSnapshot.Proxy proxy() {
        long closed = tunnelsClosed.sum();
        long opened = tunnelsOpened.sum();
        return new StatsSnapshot.Proxy(proxyForwarded.sum(), opened, Math.max(0, opened - closed),
                proxyDenied.sum(), upstreamFailures.sum(), tunnelBytes.sum());
    }

    /** A connection was accepted and is now open. */
    public void connectionOpened() {
        connectionsAccepted.increment();
        connectionsActive.increment();
    }

    /** An open connection was closed. */
    public void connectionClosed() {
        connectionsActive.decrement();
    }

    /** A connection was refused at the connection limit. */
    public void connectionRejected() {
        connectionsRejected.increment();
    }

    /** A request head was parsed (or rejected). */
    public void requestReceived() {
        requests.increment();
    }

    /** An exchange started. */
    public void exchangeStarted() {
        exchangesActive.increment();
    }

    /** An exchange ended. */
    public void exchangeEnded() {
        exchangesActive.decrement();
    }

    /** Bytes read from a client. */
    public void bytesReceived(long n) {
        bytesReceived.add(n);
    }

    /** Bytes written to a client. */
    public void bytesSent(long n) {
        bytesSent.add(n);
    }

    /** Bytes sent from a file without copying, already counted by {@link #bytesSent(long)}. */
    public void bytesSentZeroCopy(long n) {
        bytesSentZeroCopy.add(n);
    }

    /** A handler or filter threw. */
    public void handlerException() {
        handlerExceptions.increment();
    }

    /** An idle keep-alive connection was closed. */
    public void idleClose() {
        idleCloses.increment();
    }

    /** A connection was closed because a timeout expired or a minimum data rate was not met. */
    public void timeoutClose() {
        timeoutCloses.increment();
    }

    /** A stop closed a connection with an exchange in progress. */
    public void stopClose() {
        stopCloses.increment();
    }

    /** {@code lines} access log lines were dropped because the log's queue was full. */
    public void accessLogLinesDropped(int lines) {
        accessLogLinesDropped.add(lines);
    }

    /**
     * The server, short of connections, closed one early: an idle keep-alive connection after the
     * low-resources idle timeout, or an idle or stalled one to make room for a new connection. Summarised at
     * {@code INFO} with the client events, at most once a minute.
     */
    public void lowResourcesClose() {
        lowResourcesCloses.increment();
        clientEvents.recordLowResourcesClose();
    }

    /**
     * A client caused this: a request or connection was rejected, cut or broken off for this reason. Counted,
     * and summarised at {@code INFO} on the {@code dev.weft.httpserver.clients} logger at most once a minute
     * per kind; the caller describes the event at {@code DEBUG}.
     */
    public void protocolError(ProtocolError error) {
        protocolErrors[error.ordinal()].increment();
        clientEvents.record(error);
    }

    /** Names the server in its client-event summary lines, e.g. by its listening address. */
    public void serverName(String name) {
        clientEvents.server(name);
    }

    /** Writes the client-event summary lines that are due; called periodically by the server. */
    public void logClientEventSummary() {
        clientEvents.flush();
    }

    /** A connection started speaking HTTP/2. */
    public void http2ConnectionOpened() {
        h2Connections.increment();
    }

    /** A client opened a stream. */
    public void streamOpened() {
        streamsOpened.increment();
    }

    /** An open stream closed (normally or by reset). */
    public void streamClosed() {
        streamsClosed.increment();
    }

    /** A stream was reset by either side. */
    public void streamReset() {
        streamsReset.increment();
    }

    /** We sent a GOAWAY frame. */
    public void goAwaySent() {
        goAwaysSent.increment();
    }

    /** The client sent a GOAWAY frame. */
    public void goAwayReceived() {
        goAwaysReceived.increment();
    }

    /** A WebSocket session completed its opening handshake. */
    public void webSocketOpened(boolean overHttp2) {
        wsOpened.increment();
        if (overHttp2) {
            wsOverHttp2.increment();
        }
    }

    /** A WebSocket session ended, however it ended. */
    public void webSocketClosed() {
        wsClosed.increment();
    }

    /** A whole WebSocket data message was received. */
    public void webSocketMessageReceived() {
        wsMessagesReceived.increment();
    }

    /** A whole WebSocket data message was sent. */
    public void webSocketMessageSent() {
        wsMessagesSent.increment();
    }

    /** A WebSocket session was closed for a peer's protocol violation or an exceeded limit. */
    public void webSocketProtocolClose() {
        wsProtocolCloses.increment();
    }

    /** The proxy forwarded a request to an origin. */
    public void proxyRequestForwarded() {
        proxyForwarded.increment();
    }

    /** The proxy established a CONNECT tunnel. */
    public void tunnelOpened() {
        tunnelsOpened.increment();
    }

    /** A CONNECT tunnel ended; {@code bytes} were relayed through it in both directions. */
    public void tunnelClosed(long bytes) {
        tunnelsClosed.increment();
        tunnelBytes.add(bytes);
    }

    /** The proxy refused a request (allow-lists or authorization). */
    public void proxyDenied() {
        proxyDenied.increment();
    }

    /** The proxy answered 502 or 504 because the origin failed. */
    public void upstreamFailure() {
        upstreamFailures.increment();
    }
}
