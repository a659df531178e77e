package dev.weft.httpserver.http2;

import dev.weft.httpserver.core.Connection;
import dev.weft.httpserver.core.ConnectionInput;
import dev.weft.httpserver.hpack.HeaderField;
import dev.weft.httpserver.http2.Frame.RstStreamFrame;
import dev.weft.httpserver.http2.Frame.WindowUpdateFrame;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.ServerStats;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The connection as its streams see it, from their handler threads: sending their frames through the one
 * {@link ConnectionWriter} within the peer's flow-control windows, and taking them off the connection's books
 * when they close. {@link Http2Connection} (the reader) creates one per connection and shares the objects below.
 */
final class StreamHost {

    static final byte[] EMPTY = new byte[0];
    private static final System.Logger LOG = System.getLogger(Http2Connection.class.getName());
    /** The most streams the stream table is sized for up front; a higher limit grows it on demand. */
    private static final int MAX_PRESIZED_STREAMS = 256;

    private final Connection connection;
    private final ConnectionInput in;
    private final ServerStats stats;
    private final ConnectionWriter writer;
    private final FrameWriter encoder = new FrameWriter();
    private final SendFlowControl sendFlow;
    private final ConcurrentHashMap<Integer, Http2Stream> streams;
    private final StreamCounts counts = new StreamCounts();
    private final ClosedStreams closedStreams = new ClosedStreams();
    private final AtomicBoolean goAwaySent = new AtomicBoolean();
    private final AtomicBoolean closing = new AtomicBoolean();
    private final long idleNanos;
    private final long writeTimeoutNanos;
    private final int streamUpdateThreshold;
    // Written by the reader on GOAWAY and SETTINGS.
    private volatile boolean goAwayReceived;
    private volatile int peerMaxFrameSize = Http2Settings.DEFAULT_MAX_FRAME_SIZE;

    StreamHost(Connection connection) {
        this.connection = connection;
        this.in = connection.input();
        this.stats = connection.stats();
        this.writer = new ConnectionWriter(connection.output(), connection::close, connection::flushBytesWritten);
        this.sendFlow = new SendFlowControl(connection.config().minResponseDataRate(),
                connection.config().dataRateGracePeriod().toNanos());
        // Sized for the streams a client may open, so that the table does not grow (and rehash) as a new
        // connection's first requests arrive.
        this.streams = new ConcurrentHashMap<>(Math.min(connection.config().http2().maxConcurrentStreams(),
                MAX_PRESIZED_STREAMS));
        this.idleNanos = connection.config().idleTimeout().toNanos();
        this.writeTimeoutNanos = connection.config().writeTimeout().toNanos();
        this.streamUpdateThreshold = Math.max(1, connection.config().http2().initialWindowSize() / 2);
    }

    // ---- shared with the reader ----

    Connection connection() {
        return connection;
    }

    ConnectionWriter writer() {
        return writer;
    }

    FrameWriter encoder() {
        return encoder;
    }

    SendFlowControl sendFlow() {
        return sendFlow;
    }

    ConcurrentHashMap<Integer, Http2Stream> streams() {
        return streams;
    }

    StreamCounts counts() {
        return counts;
    }

    ClosedStreams closedStreams() {
        return closedStreams;
    }

    /** Set once GOAWAY went out (the reader's and a graceful stop's GOAWAY share it). */
    AtomicBoolean goAwaySent() {
        return goAwaySent;
    }

    void goAwayReceived() {
        goAwayReceived = true;
    }

    void peerMaxFrameSize(int size) {
        peerMaxFrameSize = size;
    }

    int streamWindowUpdateThreshold() {
        return streamUpdateThreshold;
    }

    // ---- sending ----

    /** Resets a stream that is not open (from the reader): nothing of it is queued. */
    void sendReset(int id, ErrorCode code) {
        stats.streamReset();
        writer.sendControl(new ConnectionWriter.Frames(encoder.encode(new RstStreamFrame(id, code))));
    }

    /**
     * Resets an open stream: its RST_STREAM is the last of its frames the writer sends.
     *
     * @return false if the stream was closed already (nothing is sent)
     */
    boolean sendReset(StreamLifecycle stream, ErrorCode code) {
        if (!writer.reset(stream, new ConnectionWriter.Frames(encoder.encode(new RstStreamFrame(stream.id(), code))))) {
            return false;
        }
        stats.streamReset();
        return true;
    }

    void sendHeaders(Http2Stream stream, List<HeaderField> fields, boolean endStream) throws IOException {
        stream.enqueue(new ConnectionWriter.HeaderBlock(stream.id(), fields, endStream), endStream);
    }

    /** Sends {@code len} octets as DATA frames as the peer's windows and frame size allow. */
    void sendData(Http2Stream stream, byte[] b, int off, int len, boolean endStream) throws IOException {
        if (len == 0) {
            if (endStream) {
                stream.enqueue(new ConnectionWriter.Frames(FrameWriter.dataFrame(stream.id(), EMPTY, 0, 0, true)),
                        true);
            }
            return;
        }
        while (len > 0) {
            int n;
            try {
                n = sendFlow.acquire(stream, Math.min(len, peerMaxFrameSize), writeTimeoutNanos);
            } catch (SendFlowControl.WaitExpired e) {
                throw stream.windowWaitExpired(e);
            }
            boolean last = endStream && n == len;
            stream.enqueue(new ConnectionWriter.Frames(FrameWriter.dataFrame(stream.id(), b, off, n, last)), last);
            off += n;
            len -= n;
        }
    }

    void sendStreamWindowUpdate(Http2Stream stream, int increment) throws Http2Exception {
        stream.openReceiveWindow(increment);
        writer.sendWindowUpdate(stream,
                new ConnectionWriter.Frames(encoder.encode(new WindowUpdateFrame(stream.id(), increment))));
    }

    // ---- the connection's books ----

    /** A client-caused event on a stream: counted, and logged at DEBUG. */
    void clientEvent(ProtocolError kind, int streamId, String message) {
        stats.protocolError(kind);
        LOG.log(System.Logger.Level.DEBUG, () -> "stream " + streamId + " from " + connection.remoteAddress() + ": "
                + message);
    }

    /** Whether the connection is ending: GOAWAY sent or received, or the server stopping. */
    boolean goingAway() {
        return goAwaySent.get() || goAwayReceived || connection.draining();
    }

    /**
     * The connection is ending: streams that only wait for the rest of a request whose exchange is over are asked
     * to stop (RST_STREAM NO_ERROR, RFC 9113 §8.1) rather than keep the connection open.
     */
    void stopAwaitingRequests() {
        for (Http2Stream s : streams.values()) {
            if (s.awaitsOnlyRequest()) {
                s.reset(ErrorCode.NO_ERROR);
            }
        }
    }

    /**
     * A stream reached a closed state (§5.1); called once per stream, from any thread. It is remembered as
     * closed before it leaves the table, so the reader always finds it in one or the other.
     */
    void streamClosed(StreamLifecycle stream, StreamState closed) {
        closedStreams.add(stream.id(), closed);
        if (!streams.remove(stream.id(), stream)) {
            return;
        }
        stats.streamClosed();
        if (closed != StreamState.CLOSED) {
            sendFlow.wakeAll();
        }
        if (counts.closed(stream) == 0) {
            if (counts.running() == 0) {
                in.moveIdleDeadline(System.nanoTime(), idleNanos);
            }
            if (goingAway()) {
                closeSoon();
            }
        }
    }

    /**
     * A stream's exchange completed (its handler is done with it). Once none runs, the connection is idle: open
     * streams only wait for the rest of their requests.
     */
    void exchangeEnded(Http2Stream stream) {
        stats.exchangeEnded();
        if (counts.handlerEnded() == 0) {
            in.moveIdleDeadline(System.nanoTime(), idleNanos);
        }
    }

    /** Closes the connection once the writer has sent what is queued, without blocking the caller. */
    void closeSoon() {
        if (closing.compareAndSet(false, true)) {
            Thread.ofVirtual().start(() -> {
                writer.close();
                writer.awaitFinished(1_000_000_000L);
                connection.close();
            });
        }
    }
}
