package dev.weft.httpserver.websocket;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import com.sun.net.httpserver.HttpsExchange;
import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.httpserver.stats.ServerStats;

import javax.net.ssl.SSLSession;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One session's state and its sending side. Sends come from any thread and are serialised by
 * {@link #writeLock} (a {@code ReentrantLock}, so a virtual thread blocked in a write never pins its carrier);
 * non-blocking sends wait in {@link AsyncSends} and are written, in order, by a virtual thread of the session
 * or by the next blocking sender, whichever takes the lock first. The reader thread owns the receiving side
 * ({@link MessageReader}).
 */
final class WsSession implements WebSocketSession {

    private static final System.Logger LOG = System.getLogger(WsSession.class.getName());

    // Set once.
    private final HttpExchange exchange;
    private final String subprotocol;
    private final List<String> extensions;
    private final WebSocketConfig config;
    private final ServerStats stats;
    private final Runnable abortAction;
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();
    final ReentrantLock writeLock = new ReentrantLock();
    private final AsyncSends async;
    // Guarded by writeLock.
    private final WsFrameWriter writer;
    private final PerMessageDeflate deflate;
    /** Opcode of the message being sent in parts, or -1. */
    private int partOpcode = -1;
    private boolean partCompressed;
    // Read by any thread.
    private volatile boolean closeSent;
    private volatile long closeSentNanos;
    private volatile boolean closeReceived;
    private volatile boolean aborted;
    /** The reader loop has ended; nothing more is written. */
    private volatile boolean ended;
    private volatile long lastReceivedNanos = System.nanoTime();
    private volatile Runnable stateChanged = () -> { };

    /**
     * @param deflate     the negotiated codec, or null
     * @param abortAction ends the connection (HTTP/1.1) or stream (HTTP/2) at once
     */
    WsSession(HttpExchange exchange, OutputStream out, String subprotocol, List<String> extensions,
              WebSocketConfig config, ServerStats stats, PerMessageDeflate deflate, Runnable abortAction) {
        this.exchange = exchange;
        this.subprotocol = subprotocol;
        this.extensions = List.copyOf(extensions);
        this.config = config;
        this.stats = stats;
        this.deflate = deflate;
        this.abortAction = abortAction;
        this.writer = new WsFrameWriter(out);
        this.async = new AsyncSends(this, config.maxQueuedBytes());
    }

    // ---- what the reader thread and the timers use

    WebSocketConfig config() {
        return config;
    }

    boolean closeSent() {
        return closeSent;
    }

    long closeSentNanos() {
        return closeSentNanos;
    }

    boolean closeReceived() {
        return closeReceived;
    }

    void closeReceived(boolean received) {
        closeReceived = received;
    }

    boolean aborted() {
        return aborted;
    }

    long lastReceivedNanos() {
        return lastReceivedNanos;
    }

    /** The idle clock: bytes arrived. */
    void received() {
        lastReceivedNanos = System.nanoTime();
    }

    /** Who to tell when a close frame goes out (the close timeout starts). */
    void onStateChange(Runnable r) {
        stateChanged = r;
    }

    // ---- WebSocketSession

    @Override
    public URI requestUri() {
        return exchange.getRequestURI();
    }

    @Override
    public Headers requestHeaders() {
        return exchange.getRequestHeaders();
    }

    @Override
    public String httpVersion() {
        return exchange.getProtocol();
    }

    @Override
    public String subprotocol() {
        return subprotocol;
    }

    @Override
    public List<String> extensions() {
        return extensions;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return exchange.getRemoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return exchange.getLocalAddress();
    }

    @Override
    public HttpPrincipal principal() {
        return exchange.getPrincipal();
    }

    @Override
    public SSLSession sslSession() {
        return exchange instanceof HttpsExchange s ? s.getSSLSession() : null;
    }

    @Override
    public Map<String, Object> attributes() {
        return attributes;
    }

    @Override
    public boolean isOpen() {
        return !closeSent && !closeReceived && !aborted && !ended;
    }

    @Override
    public void sendText(CharSequence text) throws IOException {
        byte[] b = Utf8Encoder.encode(text, WsFrameWriter.HEADER_ROOM);
        sendData(Opcode.TEXT, b, WsFrameWriter.HEADER_ROOM, b.length - WsFrameWriter.HEADER_ROOM, true, true);
    }

    @Override
    public void sendBinary(ByteBuffer data) throws IOException {
        Slice s = Slice.of(data);
        sendData(Opcode.BINARY, s.array, s.offset, s.length, true, false);
    }

    @Override
    public void sendText(CharSequence part, boolean last) throws IOException {
        byte[] b = Utf8Encoder.encode(part, WsFrameWriter.HEADER_ROOM);
        sendData(Opcode.TEXT, b, WsFrameWriter.HEADER_ROOM, b.length - WsFrameWriter.HEADER_ROOM, last, true);
    }

    @Override
    public void sendBinary(ByteBuffer part, boolean last) throws IOException {
        Slice s = Slice.of(part);
        sendData(Opcode.BINARY, s.array, s.offset, s.length, last, false);
    }

    @Override
    public CompletableFuture<Void> sendTextAsync(CharSequence text) {
        byte[] b;
        try {
            b = Utf8Encoder.encode(text, WsFrameWriter.HEADER_ROOM);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        return async.add(Opcode.TEXT, b, WsFrameWriter.HEADER_ROOM, b.length - WsFrameWriter.HEADER_ROOM, true);
    }

    @Override
    public CompletableFuture<Void> sendBinaryAsync(ByteBuffer data) {
        Slice s = Slice.of(data);
        return async.add(Opcode.BINARY, s.array, s.offset, s.length, false);
    }

    @Override
    public void sendPing(ByteBuffer payload) throws IOException {
        sendControl(Opcode.PING, payload);
    }

    @Override
    public void sendPong(ByteBuffer payload) throws IOException {
        sendControl(Opcode.PONG, payload);
    }

    @Override
    public void close(int code, String reason) throws IOException {
        if (!CloseStatus.isSendable(code)) {
            throw new IllegalArgumentException("close code " + code + " may not be sent");
        }
        byte[] r = reason == null ? new byte[0] : reason.getBytes(StandardCharsets.UTF_8);
        if (r.length > CloseStatus.MAX_REASON_BYTES) {
            throw new IllegalArgumentException("close reason longer than " + CloseStatus.MAX_REASON_BYTES
                    + " bytes in UTF-8");
        }
        sendClose(closePayload(code, r));
    }

    @Override
    public void abort() {
        if (!aborted) {
            aborted = true;
            abortAction.run();
            stateChanged.run();
        }
    }

    // ---- sending

    /** @param room whether {@code b} has {@link WsFrameWriter#HEADER_ROOM} free bytes before {@code off} */
    private void sendData(int opcode, byte[] b, int off, int len, boolean last, boolean room) throws IOException {
        writeLock.lock();
        try {
            checkOpen();
            if (partOpcode == -1) {
                // Messages queued by async sends before this one go first.
                async.drainLocked(false);
                // A message sent in parts is compressed whenever compression was negotiated and the window
                // allows a message of unknown size.
                boolean compress = last ? compresses(len) : deflate != null && deflate.fitsWindow(-1);
                writeDataLocked(opcode, true, compress, b, off, len, last, room);
                if (!last) {
                    partOpcode = opcode;
                    partCompressed = compress;
                }
            } else {
                if (opcode != partOpcode) {
                    throw new IllegalStateException("a " + Opcode.name(partOpcode) + " message is being sent in parts");
                }
                writeDataLocked(opcode, false, partCompressed, b, off, len, last, room);
                if (last) {
                    partOpcode = -1;
                    async.drainLocked(false);
                }
            }
        } finally {
            writeLock.unlock();
        }
    }

    /** Whether a whole message of {@code length} bytes goes out compressed. */
    boolean compresses(int length) {
        return deflate != null && length >= config.compressionMinSize() && deflate.fitsWindow(length);
    }

    /** Whether a message is being sent in parts (async sends wait until it ends). */
    boolean sendingParts() {
        return partOpcode != -1;
    }

    /**
     * Writes one data frame and flushes; an I/O failure ends the session.
     *
     * @param room whether {@code b} has {@link WsFrameWriter#HEADER_ROOM} free bytes before {@code off}
     */
    void writeDataLocked(int opcode, boolean first, boolean compress, byte[] b, int off, int len, boolean last,
                         boolean room) throws IOException {
        try {
            int op = first ? opcode : Opcode.CONTINUATION;
            if (compress) {
                int n = deflate.compress(b, off, len, last);
                writer.frame(last, first, op, deflate.output(), 0, n);
            } else if (room) {
                writer.frameInPlace(last, false, op, b, off, len);
            } else {
                writer.frame(last, false, op, b, off, len);
            }
            writer.flush();
        } catch (IOException e) {
            failedWrite(e);
            throw e;
        }
        if (last) {
            stats.webSocketMessageSent();
        }
    }

    private void sendControl(int opcode, ByteBuffer payload) throws IOException {
        Slice s = Slice.of(payload);
        if (s.length > Opcode.MAX_CONTROL_PAYLOAD) {
            throw new IllegalArgumentException(Opcode.name(opcode) + " payload longer than 125 bytes");
        }
        writeLock.lock();
        try {
            checkOpen();
            writeControlLocked(opcode, s.array, s.offset, s.length);
        } finally {
            writeLock.unlock();
        }
    }

    /** Answers a ping (RFC 6455 §5.5.2) unless our close frame has gone out. */
    void pong(byte[] payload, int len) throws IOException {
        writeLock.lock();
        try {
            if (!closeSent && !aborted && !ended) {
                writeControlLocked(Opcode.PONG, payload, 0, len);
            }
        } finally {
            writeLock.unlock();
        }
    }

    /** A ping for the keep-alive, skipped when a write is under way (the connection is busy anyway). */
    void keepAlivePing() {
        if (writeLock.tryLock()) {
            try {
                if (!closeSent && !aborted && !ended) {
                    writeControlLocked(Opcode.PING, new byte[0], 0, 0);
                }
            } catch (IOException e) {
                LOG.log(System.Logger.Level.DEBUG, () -> "keep-alive ping failed: " + e);
            } finally {
                writeLock.unlock();
            }
        }
    }

    private void writeControlLocked(int opcode, byte[] b, int off, int len) throws IOException {
        try {
            writer.frame(true, false, opcode, b, off, len);
            writer.flush();
        } catch (IOException e) {
            failedWrite(e);
            throw e;
        }
    }

    /**
     * Sends a close frame unless one was sent already (RFC 6455 §5.5.1); messages queued before it go first.
     *
     * @return whether this call sent it
     */
    boolean sendClose(byte[] payload) throws IOException {
        writeLock.lock();
        try {
            if (closeSent || aborted || ended) {
                return false;
            }
            if (partOpcode == -1) {
                async.drainLocked(false);
            }
            closeSent = true;
            closeSentNanos = System.nanoTime();
            writeControlLocked(Opcode.CLOSE, payload, 0, payload.length);
        } finally {
            writeLock.unlock();
            async.failAll(new IOException("WebSocket closed"));
            stateChanged.run();
        }
        return true;
    }

    /** {@link #sendClose} for the engine's own closes; a failed write has already aborted the session. */
    void sendCloseQuietly(int code, String reason) {
        try {
            sendClose(closePayload(code, CloseStatus.truncateReason(reason).getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "close frame not sent: " + e);
        }
    }

    /** An echo of a received close: the peer's code alone, or nothing if it sent none (§5.5.1). */
    void echoClose(int code) throws IOException {
        sendClose(code == CloseStatus.NO_STATUS ? new byte[0] : closePayload(code, new byte[0]));
    }

    private void checkOpen() throws IOException {
        if (closeSent || aborted || ended) {
            throw new IOException("WebSocket is closed");
        }
    }

    private void failedWrite(IOException e) {
        LOG.log(System.Logger.Level.DEBUG, () -> "WebSocket write failed, aborting: " + e);
        abort();
    }

    /** Releases the compressor; the session has ended. */
    void release() {
        ended = true;
        async.failAll(new IOException("WebSocket closed"));
        if (deflate != null) {
            writeLock.lock();
            try {
                deflate.close();
            } finally {
                writeLock.unlock();
            }
        }
    }

    static byte[] closePayload(int code, byte[] reason) {
        byte[] p = new byte[2 + reason.length];
        p[0] = (byte) (code >>> 8);
        p[1] = (byte) code;
        System.arraycopy(reason, 0, p, 2, reason.length);
        return p;
    }

    /** The remaining bytes of a buffer as an array range, without copying when it has an accessible array. */
    record Slice(byte[] array, int offset, int length) {
        static Slice of(ByteBuffer b) {
            if (b.hasArray()) {
                return new Slice(b.array(), b.arrayOffset() + b.position(), b.remaining());
            }
            byte[] copy = new byte[b.remaining()];
            b.duplicate().get(copy);
            return new Slice(copy, 0, copy.length);
        }
    }
}
