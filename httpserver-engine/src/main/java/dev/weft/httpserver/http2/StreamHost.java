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
    /** The most streams the stream table is sized for up front; a higher limit grows it on demand. */
    private static final int MAX_PRESIZED_STREAMS = 256;

    private final Connection connection;
    private final ConnectionInput in;
    private final ServerStats stats;
    private final ConnectionWriter writer;
    private final FrameWriter encoder = new FrameWriter();
    private final SendFlowControl sendFlow = new SendFlowControl();
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

    /** Resets an open stream: its RST_STREAM is the last of its frames the writer sends. */
    void sendReset(ConnectionWriter.StreamFrames frames, int id, ErrorCode code) {
        stats.streamReset();
        writer.reset(frames, new ConnectionWriter.Frames(encoder.encode(new RstStreamFrame(id, code))));
    }

    void sendHeaders(Http2Stream stream, List<HeaderField> fields, boolean endStream) throws IOException {
        if (endStream) {
            counts.ending(stream);
        }
        stream.enqueue(new ConnectionWriter.HeaderBlock(stream.id(), fields, endStream));
    }

    /** Sends {@code len} octets as DATA frames as the peer's windows and frame size allow. */
    void sendData(Http2Stream stream, byte[] b, int off, int len, boolean endStream) throws IOException {
        if (len == 0) {
            if (endStream) {
                counts.ending(stream);
                stream.enqueue(new ConnectionWriter.Frames(FrameWriter.dataFrame(stream.id(), EMPTY, 0, 0, true)));
            }
            return;
        }
        while (len > 0) {
            int n = sendFlow.acquire(stream, Math.min(len, peerMaxFrameSize), writeTimeoutNanos);
            boolean last = endStream && n == len;
            if (last) {
                counts.ending(stream);
            }
            stream.enqueue(new ConnectionWriter.Frames(FrameWriter.dataFrame(stream.id(), b, off, n, last)));
            off += n;
            len -= n;
        }
    }

    void sendStreamWindowUpdate(Http2Stream stream, int increment) throws IOException {
        stream.openReceiveWindow(increment);
        byte[] update = encoder.encode(new WindowUpdateFrame(stream.id(), increment));
        stream.enqueueUnordered(new ConnectionWriter.Frames(update));
    }

    // ---- the connection's books ----

    void bodyReadTimedOut() {
        stats.protocolError(ProtocolError.BODY_TIMEOUT);
    }

    /** A stream reached "closed" (§5.1); called once per stream, from any thread. */
    void streamClosed(StreamLifecycle stream, ClosedStreams.How how) {
        if (!streams.remove(stream.id(), stream)) {
            return;
        }
        closedStreams.add(stream.id(), how);
        stats.streamClosed();
        if (how != ClosedStreams.How.ENDED) {
            sendFlow.wakeAll();
        }
        if (counts.closed(stream) == 0) {
            in.moveIdleDeadline(System.nanoTime(), idleNanos);
            if (goAwaySent.get() || goAwayReceived || connection.draining()) {
                closeSoon();
            }
        }
    }

    /** A stream's exchange completed (its handler is done with it). */
    void exchangeEnded(Http2Stream stream) {
        counts.handlerEnded();
        stats.exchangeEnded();
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
