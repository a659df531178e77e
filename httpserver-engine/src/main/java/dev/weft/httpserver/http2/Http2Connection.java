package dev.weft.httpserver.http2;

import dev.weft.httpserver.config.Http2Config;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.CarrierTurn;
import dev.weft.httpserver.core.Connection;
import dev.weft.httpserver.core.ConnectionInput;
import dev.weft.httpserver.core.ConnectionServer;
import dev.weft.httpserver.core.ExchangeDispatcher;
import dev.weft.httpserver.core.TargetPaths;
import dev.weft.httpserver.hpack.HeaderField;
import dev.weft.httpserver.hpack.HpackDecoder;
import dev.weft.httpserver.hpack.HpackException;
import dev.weft.httpserver.http2.Frame.ContinuationFrame;
import dev.weft.httpserver.http2.Frame.DataFrame;
import dev.weft.httpserver.http2.Frame.GoAwayFrame;
import dev.weft.httpserver.http2.Frame.HeadersFrame;
import dev.weft.httpserver.http2.Frame.PingFrame;
import dev.weft.httpserver.http2.Frame.PriorityFrame;
import dev.weft.httpserver.http2.Frame.PushPromiseFrame;
import dev.weft.httpserver.http2.Frame.RstStreamFrame;
import dev.weft.httpserver.http2.Frame.SettingsFrame;
import dev.weft.httpserver.http2.Frame.UnknownFrame;
import dev.weft.httpserver.http2.Frame.WindowUpdateFrame;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.ServerStats;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Serves HTTP/2 (RFC 9113) on one connection. The connection's own thread is the reader: it reads frames top
 * to bottom, owns the connection and stream state machines, enforces the limits and starts a virtual thread
 * per stream for its handler. All frames go out through one {@link ConnectionWriter}.
 */
public final class Http2Connection {

    private static final System.Logger LOG = System.getLogger(Http2Connection.class.getName());
    private static final long FAR_FUTURE_NANOS = 1L << 62;
    /** Stands for a frame that was read and answered with a stream error: nothing more to do with it. */
    private static final Frame SKIPPED = new UnknownFrame(0, 0, 0, null);

    private final Connection connection;
    private final ServerConfig config;
    private final Http2Config settings;
    private final ServerStats stats;
    private final ExchangeDispatcher dispatcher;
    private final ConnectionInput in;
    private final FrameReader reader;
    private final HpackDecoder decoder;
    private final FlowControlWindow receiveWindow;
    private final RequestFields.Checked checkedFields = new RequestFields.Checked();
    private final FloodGuard guard;
    private final StreamRejections rejections;
    private final ConnectionShutdown shutdown;
    private final ThreadFactory handlerThreads;
    private final long idleNanos;
    /** What the streams use; the fields below are its objects, shared. */
    private final StreamHost host;
    private final ConnectionWriter writer;
    private final FrameWriter encoder;
    private final SendFlowControl sendFlow;
    private final ConcurrentHashMap<Integer, Http2Stream> streams;
    private final StreamCounts counts;
    private final ClosedStreams closedStreams;
    private final AtomicBoolean goAwaySent;
    /** Makes "accept a new stream id" and "announce the last accepted id in GOAWAY" atomic. */
    private final ReentrantLock streamIdLock = new ReentrantLock();
    // Reader thread only.
    private Http2Settings peer = Http2Settings.DEFAULTS;
    private boolean settingsReceived;
    /** The client acknowledged our SETTINGS. */
    private boolean settingsAcknowledged;
    private boolean goAwayReceived;
    private int receiveUnacknowledged;
    private int blockStreamId;
    private boolean blockEndStream;
    private StreamPriority blockPriority;
    private int blockFrames;
    private final ByteArrayOutputStream block = new ByteArrayOutputStream();
    // Written by the reader, read by a graceful stop.
    private volatile int highestStreamId;
    private volatile int lastAcceptedStreamId = Integer.MAX_VALUE;

    private Http2Connection(Connection connection, ExchangeDispatcher dispatcher) {
        this.connection = connection;
        this.config = connection.config();
        this.settings = config.http2();
        this.stats = connection.stats();
        this.dispatcher = dispatcher;
        this.in = connection.input();
        this.reader = new FrameReader(in);
        reader.maxFrameSize(settings.maxFrameSize());
        this.decoder = new HpackDecoder(settings.headerTableSize(), settings.maxHeaderListSize());
        this.receiveWindow = new FlowControlWindow(0, settings.connectionWindowSize());
        this.guard = new FloodGuard(settings);
        // One name for all: numbering them would format a string per stream.
        this.handlerThreads = Thread.ofVirtual().name("weft-h2-stream").factory();
        this.idleNanos = config.idleTimeout().toNanos();
        this.host = new StreamHost(connection);
        this.writer = host.writer();
        this.encoder = host.encoder();
        this.sendFlow = host.sendFlow();
        this.streams = host.streams();
        this.counts = host.counts();
        this.closedStreams = host.closedStreams();
        this.goAwaySent = host.goAwaySent();
        this.rejections = new StreamRejections(this, host, guard);
        this.shutdown = new ConnectionShutdown(this, host, streamIdLock);
    }

    /** The protocol for a connection that has been found to speak HTTP/2. */
    public static ConnectionServer server(ExchangeDispatcher dispatcher) {
        return c -> new Http2Connection(c, dispatcher).serve();
    }

    // ---- the reader loop ----

    private void serve() throws IOException {
        if (!connection.markIdle() || !connection.markActive()) {
            return;
        }
        stats.http2ConnectionOpened();
        Thread writerThread = Thread.ofVirtual().name(Thread.currentThread().getName() + "-h2-writer")
                .start(writer);
        try {
            in.deadline(System.nanoTime() + config.headerReadTimeout().toNanos());
            Preface.readAndVerify(in);
            sendServerPreface();
            connection.onDrain(shutdown::drain);
            readFrames();
        } catch (Http2ConnectionException e) {
            shutdown.connectionError(e);
        } catch (SocketTimeoutException e) {
            if (!connection.isClosed()) {
                if (!(e instanceof ConnectionInput.EvictedException)) {
                    stats.idleClose(); // an eviction was counted where it was decided
                }
                shutdown.goAway(ErrorCode.NO_ERROR, "idle timeout");
            }
        } catch (EOFException e) {
            stats.protocolError(ProtocolError.UNEXPECTED_EOF);
            LOG.log(Level.DEBUG, () -> "HTTP/2 client " + connection.remoteAddress() + " closed mid-frame");
        } catch (IOException e) {
            LOG.log(Level.DEBUG, () -> "HTTP/2 connection " + connection.remoteAddress() + " ended: " + e);
        } finally {
            shutdown.finish(writerThread);
        }
    }

    private void sendServerPreface() throws IOException {
        control(new SettingsFrame(false, Http2Settings.announcedBy(settings)));
        int extra = settings.connectionWindowSize() - Http2Settings.DEFAULT_WINDOW_SIZE;
        if (extra > 0) {
            control(new WindowUpdateFrame(0, extra));
        }
    }

    /**
     * Reads frames until the connection is to end: first the opening, until both sides' SETTINGS are in
     * effect (RFC 9113 §3.4, §6.5.3), then the rest, one read from the socket at a time.
     *
     * <p>The opening has its own loop and dispatch so that the frames only a new connection sends (SETTINGS,
     * the connection's first WINDOW_UPDATE, the ACK of ours) never reach the compiled steady-state path:
     * the JIT compiles that for the frames of established connections, and would otherwise throw the
     * compiled code away, and compile it again, whenever new connections arrive.
     */
    private void readFrames() throws IOException {
        boolean more = true;
        while (more && !(settingsReceived && settingsAcknowledged)) {
            more = readOpeningFrame();
        }
        while (more) {
            more = readBufferedFrames();
        }
    }

    /** Reads and handles one frame of the opening; false once the connection is to end. */
    private boolean readOpeningFrame() throws IOException {
        armReadDeadline();
        Frame frame = nextFrame();
        if (frame == null || frame == SKIPPED) {
            return frame != null;
        }
        if (!settingsReceived && !(frame instanceof SettingsFrame s && !s.ack())) {
            throw new Http2ConnectionException(ErrorCode.PROTOCOL_ERROR, "the client preface must end with SETTINGS");
        }
        try {
            if (blockStreamId == 0 && frame instanceof SettingsFrame f) {
                onSettings(f);
            } else if (blockStreamId == 0 && frame instanceof WindowUpdateFrame f) {
                onWindowUpdate(f);
            } else {
                handle(frame);
            }
        } catch (Http2StreamException e) {
            rejections.streamError(e);
        }
        return !isDone();
    }

    /**
     * Handles the frames of one read from the socket: reads (waiting for the first, and for the rest of one
     * that arrived in part) until nothing is left buffered. A method per read rather than one never-ending
     * loop, so that the JIT compiles it as a method: a new connection's reader then runs compiled code from
     * its first frame instead of the interpreter until an on-stack replacement of its own.
     *
     * @return false once the connection is to end
     */
    private boolean readBufferedFrames() throws IOException {
        armReadDeadline();
        do {
            if (!readFrame()) {
                return false;
            }
        } while (in.buffered() > 0);
        return true;
    }

    /** Reads and handles one frame; false at the end of the input or once the connection is to end. */
    private boolean readFrame() throws IOException {
        Frame frame = nextFrame();
        if (frame == null || frame == SKIPPED) {
            return frame != null;
        }
        try {
            handle(frame);
        } catch (Http2StreamException e) {
            rejections.streamError(e);
        }
        return !isDone();
    }

    /** The next frame; {@link #SKIPPED} for one that was answered with a stream error; null at the end. */
    private Frame nextFrame() throws IOException {
        try {
            return reader.readFrame();
        } catch (Http2StreamException e) {
            rejections.streamError(e);
            return SKIPPED;
        }
    }

    /** Whether the connection is to end: after a GOAWAY either way, once no stream is left. */
    private boolean isDone() {
        return (goAwayReceived || goAwaySent.get()) && counts.open() == 0 && blockStreamId == 0;
    }

    /**
     * Without exchanges at work the connection may idle for the idle timeout (open streams then only wait for
     * the rest of requests whose exchange is over); with exchanges it waits for ever.
     */
    private void armReadDeadline() {
        if (in.buffered() > 0) {
            return;
        }
        connection.flushBytesRead(); // once per read from the socket, not per frame
        if (counts.running() == 0) {
            in.idleDeadline(System.nanoTime(), idleNanos);
        } else {
            in.deadline(System.nanoTime() + FAR_FUTURE_NANOS);
            if (counts.running() == 0) {
                in.idleDeadline(System.nanoTime(), idleNanos); // the last exchange ended meanwhile
            }
        }
    }

    private void handle(Frame frame) throws IOException {
        if (blockStreamId != 0 && !(frame instanceof ContinuationFrame)) {
            throw new Http2ConnectionException(ErrorCode.PROTOCOL_ERROR,
                    frame.type() + " frame inside the header block of stream " + blockStreamId);
        }
        switch (frame) {
            case DataFrame f -> onData(f);
            case HeadersFrame f -> onHeaders(f);
            case ContinuationFrame f -> onContinuation(f);
            case PriorityFrame f -> guard.spendControl(); // RFC 9113 §5.3.2: priority signals may be ignored
            case RstStreamFrame f -> onRstStream(f);
            case SettingsFrame f -> onSettings(f);
            case PushPromiseFrame f -> throw new Http2ConnectionException(ErrorCode.PROTOCOL_ERROR,
                    "a client cannot push");
            case PingFrame f -> {
                if (!f.ack()) {
                    guard.spendControl();
                    control(new PingFrame(true, f.opaqueData()));
                }
            }
            case GoAwayFrame f -> {
                stats.goAwayReceived();
                goAwayReceived = true;
                host.goAwayReceived();
                host.stopAwaitingRequests();
                LOG.log(Level.DEBUG, () -> "GOAWAY from " + connection.remoteAddress() + ": " + f.error()
                        + " " + new String(f.debugData(), StandardCharsets.UTF_8));
            }
            case WindowUpdateFrame f -> onWindowUpdate(f);
            case UnknownFrame f -> guard.spendControl(); // §5.5: ignored
        }
    }

    // ---- HEADERS and CONTINUATION ----

    private void onHeaders(HeadersFrame f) throws IOException {
        if (f.fragment().length == 0 && !f.endHeaders()) {
            guard.spendControl();
        }
        blockStreamId = f.streamId();
        blockEndStream = f.endStream();
        blockPriority = f.priority();
        blockFrames = 1;
        if (f.endHeaders()) {
            endHeaderBlock(f.fragment()); // the usual case: the whole block in one frame
            return;
        }
        block.reset();
        block.write(f.fragment(), 0, f.fragment().length);
    }

    private void onContinuation(ContinuationFrame f) throws IOException {
        if (blockStreamId == 0 || f.streamId() != blockStreamId) {
            throw new Http2ConnectionException(ErrorCode.PROTOCOL_ERROR, "unexpected CONTINUATION on stream "
                    + f.streamId());
        }
        if (f.fragment().length == 0 && !f.endHeaders()) {
            guard.spendControl();
        }
        // CONTINUATION flood (CVE-2024-27316): a header block is bounded in frames and in bytes.
        if (++blockFrames > FloodGuard.MAX_CONTINUATION_FRAMES
                || block.size() + f.fragment().length > 2L * settings.maxHeaderListSize() + 16 * 1024) {
            throw FloodGuard.flood("header block too long");
        }
        block.write(f.fragment(), 0, f.fragment().length);
        if (f.endHeaders()) {
            byte[] whole = block.toByteArray();
            block.reset();
            endHeaderBlock(whole);
        }
    }

    private void endHeaderBlock(byte[] fragment) throws IOException {
        int id = blockStreamId;
        blockStreamId = 0;
        List<HeaderField> fields;
        boolean tooLarge = false;
        try {
            fields = decoder.decode(fragment);
        } catch (HpackException e) {
            if (e.isConnectionError()) {
                throw new Http2ConnectionException(ErrorCode.COMPRESSION_ERROR, e.getMessage());
            }
            fields = List.of();
            tooLarge = true;
        }
        if ((id & 1) == 0) {
            throw new Http2ConnectionException(ErrorCode.PROTOCOL_ERROR, "even stream id " + id + " from a client");
        }
        Http2Stream stream = streams.get(id);
        if (stream != null) {
            StreamState state = stream.state();
            if (state.remoteOpen()) {
                onTrailers(stream, fields, tooLarge);
            } else {
                rejections.notAccepted(id, state, true, highestStreamId);
            }
            return;
        }
        if (id <= highestStreamId) {
            rejections.notAccepted(id, null, true, highestStreamId);
            return;
        }
        boolean accepted;
        streamIdLock.lock();
        try {
            highestStreamId = id;
            accepted = id <= lastAcceptedStreamId;
        } finally {
            streamIdLock.unlock();
        }
        if (blockPriority != null && blockPriority.dependency() == id) {
            throw new Http2StreamException(id, ErrorCode.PROTOCOL_ERROR, "stream depends on itself");
        }
        if (!accepted || goAwayReceived) {
            closedStreams.add(id, StreamState.RESET_SENT); // after our GOAWAY: ignored (§6.8)
            return;
        }
        connection.requestReceived();
        if (tooLarge || fields.size() > config.maxHeaderCount()) {
            stats.protocolError(ProtocolError.HEADERS_TOO_LARGE);
            rejections.rejectEarly(id, 431, "request header fields too large", peer.initialWindowSize(),
                    blockEndStream);
            return;
        }
        if (counts.atLimit(settings.maxConcurrentStreams())) {
            LOG.log(Level.DEBUG, () -> "refusing stream " + id + " from " + connection.remoteAddress()
                    + ": too many concurrent streams (" + counts + ")");
            rejections.refuse(id);
            return;
        }
        RequestFields request = RequestFields.ofRequest(id, fields, checkedFields, settings.extendedConnect());
        if (blockEndStream && request.contentLength() > 0) {
            throw new Http2StreamException(id, ErrorCode.PROTOCOL_ERROR, "content-length without DATA");
        }
        if (request.path() != null && TargetPaths.hasDotSegment(request.path())) {
            stats.protocolError(ProtocolError.BAD_REQUEST_TARGET);
            rejections.rejectEarly(id, 400, "dot-segment in request path", peer.initialWindowSize(), blockEndStream);
            return;
        }
        if (request.contentLength() > config.maxRequestBodySize()) {
            stats.protocolError(ProtocolError.BODY_TOO_LARGE);
            rejections.rejectEarly(id, 413, "request body too large", peer.initialWindowSize(), blockEndStream);
            return;
        }
        openStream(id, request, blockEndStream);
    }

    private void openStream(int id, RequestFields request, boolean endStream) {
        Http2Stream stream = new Http2Stream(id, host, request, peer.initialWindowSize(),
                settings.initialWindowSize(), config.bodyReadTimeout().toNanos(), endStream);
        streams.put(id, stream);
        counts.opened();
        stats.streamOpened();
        stats.exchangeStarted();
        handlerThreads.newThread(() -> dispatch(stream)).start();
    }

    private void dispatch(Http2Stream stream) {
        stream.handlerThread(Thread.currentThread(), new CarrierTurn(config.threads().timeSlice().toNanos()));
        try {
            dispatcher.dispatch(stream);
        } catch (RuntimeException | Error e) {
            LOG.log(Level.ERROR, "dispatching stream " + stream.id() + " failed", e);
            stream.abort(e);
        }
    }

    /** A second header block on a stream whose request is still arriving: its trailers (§8.1). */
    private void onTrailers(Http2Stream stream, List<HeaderField> fields, boolean tooLarge) throws IOException {
        int id = stream.id();
        if (!blockEndStream) {
            throw new Http2StreamException(id, ErrorCode.PROTOCOL_ERROR, "second HEADERS without END_STREAM");
        }
        if (tooLarge || fields.size() > config.maxHeaderCount()) {
            throw new Http2StreamException(id, ErrorCode.PROTOCOL_ERROR, "trailer section too large");
        }
        var trailers = RequestFields.ofTrailers(id, fields);
        stream.checkLengthAtEnd();
        stream.remoteEnded(trailers);
    }

    // ---- DATA ----

    private void onData(DataFrame f) throws IOException {
        int id = f.streamId();
        int length = f.flowControlledLength();
        receiveWindow.consume(length);
        returnToConnectionWindow(length);
        Http2Stream stream = streams.get(id);
        StreamState state = stream == null ? null : stream.state();
        if (state == null || !state.remoteOpen()) {
            if (stream == null && id > highestStreamId) {
                throw new Http2ConnectionException(ErrorCode.PROTOCOL_ERROR, "DATA on idle stream " + id);
            }
            rejections.notAccepted(id, state, false, highestStreamId);
            return;
        }
        stream.consumeReceiveWindow(length);
        byte[] data = f.data();
        if (data.length == 0 && !f.endStream()) {
            guard.spendControl(); // no octet and no end: a frame without effect
        }
        long received = stream.addReceived(data.length);
        long declared = stream.request().contentLength();
        if (declared >= 0 && received > declared) {
            throw new Http2StreamException(id, ErrorCode.PROTOCOL_ERROR, "more DATA than content-length");
        }
        int padding = length - data.length;
        boolean discarded = false;
        // A CONNECT tunnel's DATA is not a request body: flow control bounds what is buffered, not a size limit.
        if (received > config.maxRequestBodySize() && !stream.request().method().equals("CONNECT")) {
            stats.protocolError(ProtocolError.BODY_TOO_LARGE);
            stream.bodyTooLarge(config.maxRequestBodySize());
            discarded = true;
        } else if (!stream.body().offer(data)) {
            discarded = true; // nothing reads the body any more
        }
        if (discarded) {
            padding = length; // return all of it
        }
        if (padding > 0) {
            stream.consumed(padding);
        }
        if (f.endStream()) {
            stream.checkLengthAtEnd();
            stream.remoteEnded(null);
        } else if (discarded) {
            stream.discarded(length);
        }
    }

    /** The connection window is returned as data arrives: only stream windows bound what is buffered. */
    private void returnToConnectionWindow(int n) throws IOException {
        receiveUnacknowledged += n;
        if (receiveUnacknowledged >= settings.connectionWindowSize() / 2) {
            int update = receiveUnacknowledged;
            receiveUnacknowledged = 0;
            receiveWindow.increment(update);
            control(new WindowUpdateFrame(0, update));
        }
    }

    // ---- RST_STREAM, WINDOW_UPDATE, SETTINGS ----

    private void onRstStream(RstStreamFrame f) throws IOException {
        int id = f.streamId();
        Http2Stream stream = streams.get(id);
        if (stream == null && id > highestStreamId) {
            throw new Http2ConnectionException(ErrorCode.PROTOCOL_ERROR, "RST_STREAM on idle stream " + id);
        }
        if (stream != null && !stream.state().isClosed()) {
            stats.streamReset();
            LOG.log(Level.DEBUG, () -> "stream " + id + " reset by " + connection.remoteAddress() + ": " + f.error());
            stream.resetByPeer();
            sendFlow.wakeAll();
        }
        // Rapid reset (CVE-2023-44487): resets cost a budget, those of closed streams (ignored, §5.1) too; a
        // client that runs it dry is cut off.
        guard.spendReset();
    }

    /**
     * Grows a send window (§6.9). An update that does not return credit for data we sent (nor is the first of its
     * stream) has no effect a well-behaved client needs, such as a stream of WINDOW_UPDATE(+1): it costs a
     * control frame.
     */
    private void onWindowUpdate(WindowUpdateFrame f) throws IOException {
        int id = f.streamId();
        boolean earned;
        if (id == 0) {
            earned = sendFlow.connectionUpdate(f.increment());
        } else {
            Http2Stream stream = streams.get(id);
            if (stream == null && id > highestStreamId) {
                throw new Http2ConnectionException(ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE on idle stream " + id);
            }
            earned = stream == null || stream.state().isClosed()
                    ? sendFlow.closedStreamUpdate(f.increment()) // §5.1: ignored, may cross our END_STREAM
                    : sendFlow.streamUpdate(stream, f.increment());
        }
        if (!earned) {
            guard.spendControl();
        }
    }

    private void onSettings(SettingsFrame f) throws IOException {
        if (f.ack()) {
            settingsAcknowledged = true;
            return;
        }
        if (settingsReceived) {
            guard.spendControl();
        }
        settingsReceived = true;
        Http2Settings old = peer;
        peer = old.apply(f.settings());
        // The ACK is queued first (§6.5.3): no frame the new settings allow (DATA in a larger window or frame)
        // leaves before it.
        controlOrFlood(new ConnectionWriter.PeerSettings(peer.headerTableSize(), peer.maxFrameSize()));
        if (peer.initialWindowSize() != old.initialWindowSize()) {
            sendFlow.initialWindowChanged(streams.values(), old.initialWindowSize(), peer.initialWindowSize());
        }
        host.peerMaxFrameSize(peer.maxFrameSize());
    }

    /** Stops accepting new streams (under the stream id lock, as GOAWAY goes out): the last accepted id. */
    int stopAcceptingStreams() {
        int last = highestStreamId;
        lastAcceptedStreamId = last;
        return last;
    }

    /** Queues a frame from the reader; a peer that leaves too many unread is cut off. */
    private void control(Frame frame) throws Http2ConnectionException {
        controlOrFlood(new ConnectionWriter.Frames(encoder.encode(frame)));
    }

    void controlOrFlood(ConnectionWriter.Item item) throws Http2ConnectionException {
        if (!writer.sendControl(item)) {
            connection.close();
            throw FloodGuard.flood("client does not read our frames");
        }
    }
}
