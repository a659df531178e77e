package dev.weft.httpserver.http2;

import dev.weft.httpserver.config.Http2Config;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.Connection;
import dev.weft.httpserver.core.ConnectionInput;
import dev.weft.httpserver.core.ConnectionServer;
import dev.weft.httpserver.core.DateCache;
import dev.weft.httpserver.core.ExchangeDispatcher;
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
import java.util.ArrayList;
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
    private static final int MAX_CONTINUATION_FRAMES = 64;
    private static final byte[] EMPTY = new byte[0];

    private final Connection connection;
    private final ServerConfig config;
    private final Http2Config settings;
    private final ServerStats stats;
    private final ExchangeDispatcher dispatcher;
    private final ConnectionInput in;
    private final FrameReader reader;
    private final FrameWriter encoder = new FrameWriter();
    private final ConnectionWriter writer;
    private final HpackDecoder decoder;
    private final SendFlowControl sendFlow = new SendFlowControl();
    private final FlowControlWindow receiveWindow;
    private final ConcurrentHashMap<Integer, Http2Stream> streams = new ConcurrentHashMap<>();
    private final StreamCounts counts = new StreamCounts();
    private final ClosedStreams closedStreams = new ClosedStreams();
    private final RequestFields.Checked checkedFields = new RequestFields.Checked();
    private final RateBudget resetBudget;
    private final RateBudget controlBudget;
    private final ThreadFactory handlerThreads;
    private final long idleNanos;
    private final long writeTimeoutNanos;
    private final int streamUpdateThreshold;
    private final AtomicBoolean goAwaySent = new AtomicBoolean();
    private final AtomicBoolean closing = new AtomicBoolean();
    /** Makes "accept a new stream id" and "announce the last accepted id in GOAWAY" atomic. */
    private final ReentrantLock streamIdLock = new ReentrantLock();
    // Reader thread only.
    private Http2Settings peer = Http2Settings.DEFAULTS;
    private boolean settingsReceived;
    private int receiveUnacknowledged;
    private int blockStreamId;
    private boolean blockEndStream;
    private StreamPriority blockPriority;
    private int blockFrames;
    private final ByteArrayOutputStream block = new ByteArrayOutputStream();
    // Written by the reader, read by stream threads and by a graceful stop.
    private volatile int highestStreamId;
    private volatile boolean goAwayReceived;
    private volatile int lastAcceptedStreamId = Integer.MAX_VALUE;
    private volatile int peerMaxFrameSize = Http2Settings.DEFAULT_MAX_FRAME_SIZE;

    private Http2Connection(Connection connection, ExchangeDispatcher dispatcher) {
        this.connection = connection;
        this.config = connection.config();
        this.settings = config.http2();
        this.stats = connection.stats();
        this.dispatcher = dispatcher;
        this.in = connection.input();
        this.reader = new FrameReader(in);
        reader.maxFrameSize(settings.maxFrameSize());
        this.writer = new ConnectionWriter(connection.output(), connection::close, connection::flushBytesWritten);
        this.decoder = new HpackDecoder(settings.headerTableSize(), settings.maxHeaderListSize());
        this.receiveWindow = new FlowControlWindow(0, settings.connectionWindowSize());
        this.resetBudget = new RateBudget(settings.maxResetsPerSecond());
        this.controlBudget = new RateBudget(settings.maxControlFramesPerSecond());
        // One name for all: numbering them would format a string per stream.
        this.handlerThreads = Thread.ofVirtual().name("weft-h2-stream").factory();
        this.idleNanos = config.idleTimeout().toNanos();
        this.writeTimeoutNanos = config.writeTimeout().toNanos();
        this.streamUpdateThreshold = Math.max(1, settings.initialWindowSize() / 2);
    }

    /** The protocol for a connection that has been found to speak HTTP/2. */
    public static ConnectionServer server(ExchangeDispatcher dispatcher) {
        return c -> new Http2Connection(c, dispatcher).serve();
    }

    Connection connection() {
        return connection;
    }

    ConnectionWriter writer() {
        return writer;
    }

    int streamWindowUpdateThreshold() {
        return streamUpdateThreshold;
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
            connection.onDrain(this::drain);
            readFrames();
        } catch (Http2ConnectionException e) {
            connectionError(e);
        } catch (SocketTimeoutException e) {
            if (!connection.isClosed()) {
                stats.idleClose();
                goAway(ErrorCode.NO_ERROR, "idle timeout");
            }
        } catch (EOFException e) {
            LOG.log(Level.DEBUG, () -> "HTTP/2 client " + connection.remoteAddress() + " closed mid-frame");
        } catch (IOException e) {
            LOG.log(Level.DEBUG, () -> "HTTP/2 connection " + connection.remoteAddress() + " ended: " + e);
        } finally {
            shutdown(writerThread);
        }
    }

    private void sendServerPreface() throws IOException {
        Http2Settings ours = new Http2Settings(settings.headerTableSize(), false, settings.maxConcurrentStreams(),
                settings.initialWindowSize(), settings.maxFrameSize(), settings.maxHeaderListSize(),
                settings.extendedConnect()); // RFC 8441 §3: SETTINGS_ENABLE_CONNECT_PROTOCOL = 1
        List<Http2Settings.Setting> entries = new ArrayList<>(ours.differencesFrom(Http2Settings.DEFAULTS));
        entries.removeIf(s -> s.id() == Http2Settings.ENABLE_PUSH); // a server never sends ENABLE_PUSH
        control(new SettingsFrame(false, entries));
        int extra = settings.connectionWindowSize() - Http2Settings.DEFAULT_WINDOW_SIZE;
        if (extra > 0) {
            control(new WindowUpdateFrame(0, extra));
        }
    }

    private void readFrames() throws IOException {
        while (true) {
            armReadDeadline();
            Frame frame;
            try {
                frame = reader.readFrame();
            } catch (Http2StreamException e) {
                streamError(e);
                continue;
            }
            if (frame == null) {
                return;
            }
            if (!settingsReceived && !(frame instanceof SettingsFrame s && !s.ack())) {
                throw new Http2ConnectionException(ErrorCode.PROTOCOL_ERROR, "the client preface must end with SETTINGS");
            }
            try {
                handle(frame);
            } catch (Http2StreamException e) {
                streamError(e);
            }
            if ((goAwayReceived || goAwaySent.get()) && counts.open() == 0 && blockStreamId == 0) {
                return;
            }
        }
    }

    /** Without open streams the connection may idle for the idle timeout; with streams it waits for ever. */
    private void armReadDeadline() {
        if (in.buffered() > 0) {
            return;
        }
        connection.flushBytesRead(); // once per read from the socket, not per frame
        if (counts.open() == 0) {
            in.deadline(System.nanoTime() + idleNanos);
        } else {
            in.deadline(System.nanoTime() + FAR_FUTURE_NANOS);
            if (counts.open() == 0) {
                in.deadline(System.nanoTime() + idleNanos); // the last stream closed meanwhile
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
            case PriorityFrame f -> spendControl(); // RFC 9113 §5.3.2: priority signals may be ignored
            case RstStreamFrame f -> onRstStream(f);
            case SettingsFrame f -> onSettings(f);
            case PushPromiseFrame f -> throw new Http2ConnectionException(ErrorCode.PROTOCOL_ERROR,
                    "a client cannot push");
            case PingFrame f -> {
                if (!f.ack()) {
                    spendControl();
                    control(new PingFrame(true, f.opaqueData()));
                }
            }
            case GoAwayFrame f -> {
                stats.goAwayReceived();
                goAwayReceived = true;
                LOG.log(Level.DEBUG, () -> "GOAWAY from " + connection.remoteAddress() + ": " + f.error()
                        + " " + new String(f.debugData(), StandardCharsets.UTF_8));
            }
            case WindowUpdateFrame f -> onWindowUpdate(f);
            case UnknownFrame f -> spendControl(); // §5.5: ignored
        }
    }

    // ---- HEADERS and CONTINUATION ----

    private void onHeaders(HeadersFrame f) throws IOException {
        if (f.fragment().length == 0 && !f.endHeaders()) {
            spendControl();
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
            spendControl();
        }
        // CONTINUATION flood (CVE-2024-27316): a header block is bounded in frames and in bytes.
        if (++blockFrames > MAX_CONTINUATION_FRAMES
                || block.size() + f.fragment().length > 2L * settings.maxHeaderListSize() + 16 * 1024) {
            throw flood("header block too long");
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
            onTrailers(stream, fields, tooLarge);
            return;
        }
        if (id <= highestStreamId) {
            lateFrameOnClosedStream(id, true);
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
            closedStreams.add(id, ClosedStreams.How.RESET_BY_US); // after our GOAWAY: ignored (§6.8)
            return;
        }
        stats.requestReceived();
        if (tooLarge || fields.size() > config.maxHeaderCount()) {
            stats.protocolError(ProtocolError.HEADERS_TOO_LARGE);
            rejectEarly(id, 431);
            return;
        }
        if (counts.atLimit(settings.maxConcurrentStreams())) {
            LOG.log(Level.DEBUG, () -> "refusing stream " + id + " from " + connection.remoteAddress()
                    + ": too many concurrent streams (" + counts + ")");
            refuse(id);
            return;
        }
        RequestFields request = RequestFields.ofRequest(id, fields, checkedFields, settings.extendedConnect());
        if (blockEndStream && request.contentLength() > 0) {
            throw new Http2StreamException(id, ErrorCode.PROTOCOL_ERROR, "content-length without DATA");
        }
        if (request.contentLength() > config.maxRequestBodySize()) {
            stats.protocolError(ProtocolError.BODY_TOO_LARGE);
            rejectEarly(id, 413);
            return;
        }
        openStream(id, request, blockEndStream);
    }

    private void openStream(int id, RequestFields request, boolean endStream) {
        Http2Stream stream = new Http2Stream(id, this, request, peer.initialWindowSize(),
                settings.initialWindowSize(), config.bodyReadTimeout().toNanos(), endStream);
        streams.put(id, stream);
        counts.opened();
        stats.streamOpened();
        stats.exchangeStarted();
        handlerThreads.newThread(() -> dispatch(stream)).start();
    }

    private void dispatch(Http2Stream stream) {
        stream.handlerThread(Thread.currentThread());
        try {
            dispatcher.dispatch(stream);
        } catch (RuntimeException | Error e) {
            LOG.log(Level.ERROR, "dispatching stream " + stream.id() + " failed", e);
            stream.abort(e);
        }
    }

    /** Answers a request that is refused before any handler sees it, then stops its upload (§8.1). */
    private void rejectEarly(int id, int status) throws IOException {
        byte[] text = (status + " " + (status == 431 ? "request header fields too large" : "request body too large")
                + "\n").getBytes(StandardCharsets.US_ASCII);
        // The short explanation goes along only if the peer's windows take it now: the reader never waits.
        boolean withBody = text.length <= peer.initialWindowSize() && sendFlow.tryTakeConnectionWindow(text.length);
        List<HeaderField> fields = List.of(new HeaderField(":status", Integer.toString(status)),
                new HeaderField("content-type", "text/plain; charset=utf-8"),
                new HeaderField("content-length", withBody ? Integer.toString(text.length) : "0"),
                new HeaderField("date", DateCache.value()));
        controlOrFlood(new ConnectionWriter.HeaderBlock(id, fields, !withBody));
        if (withBody) {
            controlOrFlood(new ConnectionWriter.Frames(FrameWriter.dataFrame(id, text, 0, text.length, true)));
        }
        if (!blockEndStream) {
            sendReset(id, ErrorCode.NO_ERROR);
        }
        closedStreams.add(id, ClosedStreams.How.RESET_BY_US);
    }

    private void refuse(int id) throws IOException {
        spendReset();
        sendReset(id, ErrorCode.REFUSED_STREAM);
        closedStreams.add(id, ClosedStreams.How.RESET_BY_US);
    }

    private void onTrailers(Http2Stream stream, List<HeaderField> fields, boolean tooLarge) throws IOException {
        int id = stream.id();
        if (stream.remoteClosed()) {
            throw new Http2StreamException(id, ErrorCode.STREAM_CLOSED, "HEADERS after END_STREAM");
        }
        if (!blockEndStream) {
            throw new Http2StreamException(id, ErrorCode.PROTOCOL_ERROR, "second HEADERS without END_STREAM");
        }
        if (tooLarge || fields.size() > config.maxHeaderCount()) {
            throw new Http2StreamException(id, ErrorCode.PROTOCOL_ERROR, "trailer section too large");
        }
        var trailers = RequestFields.ofTrailers(id, fields);
        checkLengthAtEnd(stream);
        stream.remoteEnded(trailers);
    }

    /** A frame for a stream that is not open but whose id was used (§5.1 "closed"). */
    private void lateFrameOnClosedStream(int id, boolean headers) throws IOException {
        ClosedStreams.How how = closedStreams.find(id);
        if (how == ClosedStreams.How.RESET_BY_US) {
            return; // §5.1: frames in flight when we reset the stream are ignored
        }
        if (how == ClosedStreams.How.ENDED) {
            throw new Http2ConnectionException(ErrorCode.STREAM_CLOSED, "frame on closed stream " + id);
        }
        if (how == null && headers) {
            throw new Http2ConnectionException(ErrorCode.PROTOCOL_ERROR,
                    "stream id " + id + " is not greater than " + highestStreamId);
        }
        throw new Http2StreamException(id, ErrorCode.STREAM_CLOSED, "frame on closed stream " + id);
    }

    // ---- DATA ----

    private void onData(DataFrame f) throws IOException {
        int id = f.streamId();
        int length = f.flowControlledLength();
        receiveWindow.consume(length);
        returnToConnectionWindow(length);
        Http2Stream stream = streams.get(id);
        if (stream == null) {
            if (id > highestStreamId) {
                throw new Http2ConnectionException(ErrorCode.PROTOCOL_ERROR, "DATA on idle stream " + id);
            }
            lateFrameOnClosedStream(id, false);
            return;
        }
        if (stream.remoteClosed()) {
            throw new Http2StreamException(id, ErrorCode.STREAM_CLOSED, "DATA after END_STREAM");
        }
        stream.consumeReceiveWindow(length);
        byte[] data = f.data();
        if (data.length == 0 && !f.endStream()) {
            spendControl();
        }
        long received = stream.addReceived(data.length);
        long declared = stream.request().contentLength();
        if (declared >= 0 && received > declared) {
            throw new Http2StreamException(id, ErrorCode.PROTOCOL_ERROR, "more DATA than content-length");
        }
        int padding = length - data.length;
        // A CONNECT tunnel's DATA is not a request body: flow control bounds what is buffered, not a size limit.
        if (received > config.maxRequestBodySize() && !stream.request().method().equals("CONNECT")) {
            stats.protocolError(ProtocolError.BODY_TOO_LARGE);
            stream.bodyTooLarge(config.maxRequestBodySize());
            padding = length; // dropped: return all of it
        } else if (!stream.body().offer(data)) {
            padding = length; // the handler closed the body: dropped
        }
        if (padding > 0) {
            stream.consumed(padding);
        }
        if (f.endStream()) {
            checkLengthAtEnd(stream);
            stream.remoteEnded(null);
        }
    }

    private static void checkLengthAtEnd(Http2Stream stream) throws Http2StreamException {
        long declared = stream.request().contentLength();
        if (declared >= 0 && stream.received() != declared) {
            throw new Http2StreamException(stream.id(), ErrorCode.PROTOCOL_ERROR,
                    "DATA length " + stream.received() + " differs from content-length " + declared);
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
        if (stream == null) {
            if (id > highestStreamId) {
                throw new Http2ConnectionException(ErrorCode.PROTOCOL_ERROR, "RST_STREAM on idle stream " + id);
            }
            return;
        }
        stats.streamReset();
        stream.resetByPeer();
        sendFlow.wakeAll();
        // Rapid reset (CVE-2023-44487): resets cost a budget; a client that runs it dry is cut off.
        spendReset();
    }

    private void onWindowUpdate(WindowUpdateFrame f) throws IOException {
        int id = f.streamId();
        if (id == 0) {
            sendFlow.connectionUpdate(f.increment());
            return;
        }
        Http2Stream stream = streams.get(id);
        if (stream == null) {
            if (id > highestStreamId) {
                throw new Http2ConnectionException(ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE on idle stream " + id);
            }
            return; // §5.1: may arrive after we closed the stream
        }
        sendFlow.streamUpdate(stream, f.increment());
    }

    private void onSettings(SettingsFrame f) throws IOException {
        if (f.ack()) {
            return;
        }
        if (settingsReceived) {
            spendControl();
        }
        settingsReceived = true;
        Http2Settings old = peer;
        peer = old.apply(f.settings());
        if (peer.initialWindowSize() != old.initialWindowSize()) {
            sendFlow.initialWindowChanged(streams.values(), old.initialWindowSize(), peer.initialWindowSize());
        }
        peerMaxFrameSize = peer.maxFrameSize();
        controlOrFlood(new ConnectionWriter.PeerSettings(peer.headerTableSize(), peer.maxFrameSize()));
    }

    // ---- limits ----

    private void spendControl() throws Http2ConnectionException {
        if (!controlBudget.trySpend()) {
            throw flood("too many control frames");
        }
    }

    private void spendReset() throws Http2ConnectionException {
        if (!resetBudget.trySpend()) {
            throw flood("too many stream resets");
        }
    }

    private static Http2ConnectionException flood(String message) {
        return new Http2ConnectionException(ErrorCode.ENHANCE_YOUR_CALM, message);
    }

    // ---- errors and shutdown ----

    private void streamError(Http2StreamException e) throws IOException {
        int id = e.streamId();
        LOG.log(Level.DEBUG, () -> "stream error on " + id + " from " + connection.remoteAddress() + ": "
                + e.errorCode() + " " + e.getMessage());
        stats.protocolError(ProtocolError.HTTP2_STREAM_ERROR);
        Http2Stream stream = streams.get(id);
        if (stream == null || !stream.reset(e.errorCode())) {
            sendReset(id, e.errorCode());
            if (closedStreams.find(id) == null) {
                closedStreams.add(id, ClosedStreams.How.RESET_BY_US);
            }
        }
        spendReset();
    }

    private void connectionError(Http2ConnectionException e) {
        boolean calm = e.errorCode() == ErrorCode.ENHANCE_YOUR_CALM;
        stats.protocolError(calm ? ProtocolError.HTTP2_FLOOD : ProtocolError.HTTP2_CONNECTION_ERROR);
        LOG.log(calm ? Level.WARNING : Level.DEBUG, () -> "HTTP/2 connection error with "
                + connection.remoteAddress() + ": " + e.errorCode() + " " + e.getMessage());
        goAway(e.errorCode(), e.getMessage());
    }

    /** Sends GOAWAY once, naming the last stream we will process. */
    private void goAway(ErrorCode code, String message) {
        streamIdLock.lock();
        try {
            if (goAwaySent.compareAndSet(false, true)) {
                int last = highestStreamId;
                lastAcceptedStreamId = last;
                stats.goAwaySent();
                byte[] debug = message == null ? EMPTY : message.getBytes(StandardCharsets.UTF_8);
                writer.sendFinal(new ConnectionWriter.Frames(encoder.encode(new GoAwayFrame(last, code, debug))));
            }
        } finally {
            streamIdLock.unlock();
        }
    }

    /**
     * A graceful stop (called from the stopping thread, possibly many times): announce GOAWAY, let the open
     * streams finish, then close.
     */
    private void drain() {
        goAway(ErrorCode.NO_ERROR, "server stopping");
        if (counts.open() == 0) {
            closeSoon();
        }
    }

    /** Closes the connection once the writer has sent what is queued, without blocking the caller. */
    private void closeSoon() {
        if (closing.compareAndSet(false, true)) {
            Thread.ofVirtual().start(() -> {
                writer.close();
                writer.awaitFinished(1_000_000_000L);
                connection.close();
            });
        }
    }

    private void shutdown(Thread writerThread) {
        boolean stopping = connection.draining();
        for (Http2Stream s : streams.values()) {
            s.connectionClosed();
            if (stopping) {
                // The server is stopping and its grace period is over: stop handlers still at work, as
                // HTTP/1.1 does for a handler running on its connection's thread.
                s.interruptHandler();
            }
        }
        sendFlow.close();
        writer.close();
        if (!writer.awaitFinished(1_000_000_000L)) {
            connection.close();
        }
        try {
            writerThread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (goAwaySent.get() && !connection.isClosed()) {
            connection.closeGracefully(); // lets the client read our GOAWAY before the socket goes
        }
    }

    // ---- called by streams ----

    /** Queues a frame from the reader; a peer that leaves too many unread is cut off. */
    private void control(Frame frame) throws Http2ConnectionException {
        controlOrFlood(new ConnectionWriter.Frames(encoder.encode(frame)));
    }

    private void controlOrFlood(ConnectionWriter.Item item) throws Http2ConnectionException {
        if (!writer.sendControl(item)) {
            connection.close();
            throw flood("client does not read our frames");
        }
    }

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

    void bodyReadTimedOut() {
        stats.protocolError(ProtocolError.BODY_TIMEOUT);
    }

    /** A stream reached "closed" (§5.1); called once per stream, from any thread. */
    void streamClosed(Http2Stream stream, ClosedStreams.How how) {
        if (!streams.remove(stream.id(), stream)) {
            return;
        }
        closedStreams.add(stream.id(), how);
        stats.streamClosed();
        if (how != ClosedStreams.How.ENDED) {
            sendFlow.wakeAll();
        }
        if (counts.closed(stream) == 0) {
            in.moveDeadline(System.nanoTime() + idleNanos);
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
}
