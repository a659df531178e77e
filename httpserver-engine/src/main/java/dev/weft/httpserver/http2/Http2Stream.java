package dev.weft.httpserver.http2;

import com.sun.net.httpserver.Headers;
import dev.weft.httpserver.accesslog.AccessLog;
import dev.weft.httpserver.accesslog.LogEntry;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.CarrierTurn;
import dev.weft.httpserver.core.ClientClosedException;
import dev.weft.httpserver.core.ExchangeTransport;
import dev.weft.httpserver.core.ResponseFields;
import dev.weft.httpserver.core.ResponseFraming;
import dev.weft.httpserver.core.TargetPaths;
import dev.weft.httpserver.hpack.HeaderField;
import dev.weft.httpserver.stats.ProtocolError;

import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSession;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One HTTP/2 stream (RFC 9113 §5.1) carrying one request and its response; the API layer sees it as an
 * {@link ExchangeTransport}. The reader thread feeds the request side; the handler's thread drives the
 * response side. The stream closes when both sides have ended or either side reset it ({@link StreamState}).
 *
 * <p>The exchange ends when the handler closes it, which may be after the response is complete and before the
 * request is: the stream then stays half-closed (local) and takes the rest of the request, checked and
 * discarded, up to {@code maxDrainSize} bytes and for {@code drainTimeout}; beyond either it asks the client to
 * stop with RST_STREAM NO_ERROR (§8.1).
 */
final class Http2Stream extends StreamLifecycle implements ExchangeTransport {

    private static final System.Logger LOG = System.getLogger(Http2Connection.class.getName());

    private final RequestFields request;
    private final FlowControlWindow sendWindow;
    private final FlowControlWindow receiveWindow;
    /** When the stream opened, for the access log (0 without one). */
    private final long startNanos;
    /** The minimum response rate's account, or null (none, or a tunnel). Guarded by the send flow control. */
    private final WaitAllowance sendAllowance;
    // Guarded by the send flow control's lock.
    private boolean windowUpdated;
    // Reader thread only.
    private long bodyReceived;
    private long drained;
    /** When the exchange ended with the request still arriving ({@link System#nanoTime()}), else 0. */
    private volatile long awaitingRequestSince;
    // Handler side.
    private volatile Http2ResponseBody response;
    private volatile boolean completed;
    private volatile int bodyFailureStatus;
    /** We reset the stream for something the client did (too slow, malformed, timed out). */
    private volatile boolean clientFault;
    private volatile boolean handlerFailed;
    /** The response head, held back until the first body bytes or a flush (handler thread only). */
    private ConnectionWriter.Item heldHead;
    /** The thread the handler was dispatched from (it runs there unless the server has an executor). */
    private volatile Thread handlerThread;
    /** The handler thread's share of its carrier, checked between the frames it queues. */
    private CarrierTurn turn;
    private int status;
    /** The response fields as sent, for the access log. */
    private Headers responseHeaders;
    /** A 2xx answered CONNECT: the stream is a tunnel (RFC 9113 §8.5, RFC 8441 §5). */
    private volatile boolean tunnel;
    private int unacknowledged;
    private boolean interimAllowed = true;
    /** The handler asked for the body, so a client that waits for {@code 100 Continue} was told to send it. */
    private volatile boolean bodyRequested;
    private String user;
    private URI uri;
    private Headers responseTrailers;
    /** The client's address from trusted forwarded headers, or null for the connection's peer. */
    private volatile InetSocketAddress clientAddress;

    Http2Stream(int id, StreamHost host, RequestFields request, int sendWindowSize,
                int receiveWindowSize, long bodyReadTimeoutNanos, boolean endStream) {
        super(id, host, bodyReadTimeoutNanos, endStream, allowance(host, request, true));
        this.request = request;
        this.sendWindow = new FlowControlWindow(id, sendWindowSize);
        this.receiveWindow = new FlowControlWindow(id, receiveWindowSize);
        this.sendAllowance = allowance(host, request, false);
        this.startNanos = host.connection().accessLog() != null ? System.nanoTime() : 0;
    }

    /**
     * The minimum-rate account of one direction, or null without a minimum. A CONNECT request is a tunnel
     * (RFC 9113 §8.5, RFC 8441): its reads wait for messages, which is no slowness of the client.
     */
    private static WaitAllowance allowance(StreamHost host, RequestFields request, boolean requestSide) {
        ServerConfig config = host.connection().config();
        long rate = requestSide ? config.minRequestDataRate() : config.minResponseDataRate();
        if (rate == 0 || request.method().equals("CONNECT")) {
            return null;
        }
        return new WaitAllowance(rate, config.dataRateGracePeriod().toNanos());
    }

    WaitAllowance sendAllowance() {
        return sendAllowance;
    }

    /** Whether this is the stream's first WINDOW_UPDATE (under the send flow control's lock). */
    boolean firstWindowUpdate() {
        boolean first = !windowUpdated;
        windowUpdated = true;
        return first;
    }

    void handlerThread(Thread t, CarrierTurn turn) {
        this.turn = turn;
        handlerThread = t;
    }

    /** Interrupts the handler if it still runs on the thread it was dispatched on. */
    void interruptHandler() {
        Thread t = handlerThread;
        if (t != null && !completed && t != Thread.currentThread()) {
            t.interrupt();
        }
    }

    FlowControlWindow sendWindow() {
        return sendWindow;
    }

    /** Takes a received DATA frame's octets out of this stream's receive window (reader thread). */
    void consumeReceiveWindow(int n) throws Http2Exception {
        lock.lock();
        try {
            receiveWindow.consume(n);
        } finally {
            lock.unlock();
        }
    }

    /** Gives octets back to this stream's receive window as a WINDOW_UPDATE announces them. */
    void openReceiveWindow(int n) throws Http2Exception {
        lock.lock();
        try {
            receiveWindow.increment(n);
        } finally {
            lock.unlock();
        }
    }

    Http2RequestBody body() {
        return body;
    }

    RequestFields request() {
        return request;
    }

    boolean isHead() {
        return request.method().equals("HEAD");
    }

    // ---- request side, reader thread ----

    /**
     * Counts a DATA payload against the declared length and the body limit.
     *
     * @return the octets received so far
     */
    long addReceived(int n) {
        bodyReceived += n;
        return bodyReceived;
    }

    /** At the request's end: the DATA received must match a declared content-length (RFC 9113 §8.1.1). */
    void checkLengthAtEnd() throws Http2StreamException {
        long declared = request.contentLength();
        if (declared >= 0 && bodyReceived != declared) {
            throw new Http2StreamException(id, ErrorCode.PROTOCOL_ERROR,
                    "DATA length " + bodyReceived + " differs from content-length " + declared);
        }
    }

    /** The request body exceeded the server's limit: the handler's reads fail, the answer is 413. */
    void bodyTooLarge(long limit) {
        bodyFailureStatus = 413;
        body.fail(new IOException("request body exceeds the limit of " + limit + " bytes"));
    }

    /**
     * Queues a frame of this stream's response (after the held-back head, if any), unless we have reset the
     * stream; may wait while the connection's queue is full. Handler thread only.
     *
     * @throws IOException if the stream was reset or the connection failed
     */
    void enqueue(ConnectionWriter.Item item, boolean endStream) throws IOException {
        CarrierTurn t = turn;
        if (t != null) {
            t.giveWayIfOver(); // a handler streaming a large response lets the others in
        }
        ConnectionWriter.Item head = heldHead;
        heldHead = null;
        long sendStarted = System.nanoTime();
        boolean ended = host.writer().send(this, head, item, endStream);
        if (t != null) {
            t.blockingCallReturned(sendStarted); // one that waited for the window starts a new turn
        }
        if (ended) {
            endedByUs();
        }
    }

    /** Sends the response head now if it is still held back for the first body bytes. Handler thread only. */
    void flushHead() throws IOException {
        ConnectionWriter.Item head = heldHead;
        if (head != null) {
            heldHead = null;
            host.writer().sendHead(this, head);
        }
    }

    // ---- Http2RequestBody.Owner, handler thread ----

    @Override
    public void beforeFirstRead() throws IOException {
        bodyRequested = true;
        if (request.expectContinue() && response == null && interimAllowed && !body.isEnded()) {
            host.sendHeaders(this, List.of(new HeaderField(":status", "100")), false);
        }
    }

    @Override
    public void consumed(int n) throws IOException {
        // Return the octets to the client in batches of half a window; not once the client has ended.
        int update;
        lock.lock();
        try {
            if (!state().remoteOpen()) {
                return;
            }
            unacknowledged += n;
            if (unacknowledged < host.streamWindowUpdateThreshold()) {
                return;
            }
            update = unacknowledged;
            unacknowledged = 0;
        } finally {
            lock.unlock();
        }
        host.sendStreamWindowUpdate(this, update);
    }

    @Override
    public void readTimedOut() {
        host.clientEvent(ProtocolError.BODY_TIMEOUT, id, "request body not received within the body-read timeout");
        resetForClient(ErrorCode.CANCEL);
    }

    /** Resets the stream for something the client did; see {@link #clientFailed()}. */
    boolean resetForClient(ErrorCode code) {
        clientFault = true;
        return reset(code);
    }

    /**
     * Whether the client broke the exchange: it reset the stream or the connection ended, its body failed (too
     * large, too slow, timed out, malformed), or a write waited for it too long.
     */
    @Override
    public boolean closedByStop() {
        return host.connection().closedByStop();
    }

    @Override
    public boolean clientFailed() {
        return clientFault || bodyFailureStatus != 0 || state() == StreamState.RESET_RECEIVED;
    }

    /**
     * The body arrives slower than the minimum rate: the stream is given up (RST_STREAM CANCEL, "no longer
     * needed", RFC 9113 §7; ENHANCE_YOUR_CALM would tell the client it causes too much load, when it causes too
     * little).
     */
    @Override
    public void readTooSlow() {
        host.clientEvent(ProtocolError.REQUEST_DATA_RATE, id, "request body slower than "
                + host.connection().config().minRequestDataRate() + " bytes/s, stream reset");
        resetForClient(ErrorCode.CANCEL);
    }

    /**
     * A write waited too long for the client's flow-control window: the write timeout, or slower than the
     * minimum response rate (the HTTP/2 slow read). The stream is reset with CANCEL (see {@link #readTooSlow}).
     *
     * @return the exception the handler's write fails with
     */
    IOException windowWaitExpired(SendFlowControl.WaitExpired e) {
        host.clientEvent(e.rate ? ProtocolError.RESPONSE_DATA_RATE : ProtocolError.WRITE_TIMEOUT, id,
                e.getMessage() + ", stream reset");
        resetForClient(ErrorCode.CANCEL);
        return new ClientClosedException(e.getMessage(), e);
    }

    // ---- the rest of a request after its exchange (reader thread) ----

    /** Whether the exchange is over and the stream only waits for the rest of the request. */
    boolean awaitsOnlyRequest() {
        return awaitingRequestSince != 0 && state() == StreamState.HALF_CLOSED_LOCAL;
    }

    /**
     * {@code n} octets of the request were discarded because nothing reads them any more. After the exchange,
     * they count against the drain limits: beyond them the client is asked to stop (RST_STREAM NO_ERROR, §8.1).
     */
    void discarded(int n) {
        long since = awaitingRequestSince;
        if (since == 0) {
            return;
        }
        drained += n;
        ServerConfig config = host.connection().config();
        if (drained > config.maxDrainSize() || System.nanoTime() - since > config.drainTimeout().toNanos()) {
            stopRequest("the rest of the request exceeds the drain limits");
        }
    }

    private void stopRequest(String why) {
        if (reset(ErrorCode.NO_ERROR)) {
            LOG.log(System.Logger.Level.DEBUG, () -> "stream " + id + " from " + remoteAddress()
                    + ": response complete, " + why + ": RST_STREAM NO_ERROR");
        }
    }

    // ---- response side, handler thread ----

    /** Sends DATA frames for {@code len} octets, as flow control allows; END_STREAM on the last if asked. */
    void sendData(byte[] b, int off, int len, boolean endStream) throws IOException {
        host.sendData(this, b, off, len, endStream);
    }

    /** Ends the response: the remaining octets and END_STREAM, or trailers carrying END_STREAM. */
    void finishBody(byte[] b, int len) throws IOException {
        Headers trailers = responseTrailers;
        if (trailers == null || trailers.isEmpty()) {
            host.sendData(this, b, 0, len, true);
        } else {
            if (len > 0) {
                host.sendData(this, b, 0, len, false);
            }
            host.sendHeaders(this, ResponseHead.trailers(trailers), true);
        }
    }

    /** The handler failed after the head was sent: the response is broken off. */
    void resetAfterHandlerError() {
        reset(ErrorCode.INTERNAL_ERROR);
    }

    @Override
    public void setResponseTrailers(Headers trailers) {
        try {
            ResponseFields.validate(trailers);
            this.responseTrailers = trailers;
        } catch (IOException | NullPointerException e) {
            // an invalid trailer field is dropped rather than sent
            System.getLogger(Http2Stream.class.getName()).log(System.Logger.Level.WARNING,
                    "response trailers not sent: " + e.getMessage());
        }
    }

    @Override
    public String method() {
        return request.method();
    }

    @Override
    public URI requestUri() {
        if (uri == null) {
            try {
                String path = request.path();
                uri = path == null ? TargetPaths.authorityUri(request.authority())
                        : path.equals("*") ? new URI(path) : TargetPaths.originUri(path);
            } catch (URISyntaxException e) {
                throw new IllegalStateException("validated :path is not a URI: " + request.path(), e);
            }
        }
        return uri;
    }

    @Override
    public String routingPath() {
        String path = request.path();
        if (path == null || path.equals("*")) {
            return "/";
        }
        try {
            return TargetPaths.originPath(path);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("validated :path is not a URI: " + path, e);
        }
    }

    @Override
    public String protocol() {
        return "HTTP/2.0";
    }

    @Override
    public String rawTarget() {
        return request.path() == null ? request.authority() : request.path();
    }

    /** The per-read wait of the tunnel's request stream (after a 2xx to CONNECT); zero for no limit. */
    @Override
    public void tunnelReadTimeout(java.time.Duration timeout) {
        body.readTimeout(timeout.toNanos());
    }

    @Override
    public String connectProtocol() {
        return request.protocol();
    }

    @Override
    public Headers requestHeaders() {
        return request.headers();
    }

    @Override
    public InetSocketAddress clientAddress() {
        InetSocketAddress a = clientAddress;
        return a != null ? a : remoteAddress();
    }

    @Override
    public void clientAddress(InetSocketAddress address) {
        clientAddress = address;
    }

    @Override
    public dev.weft.httpserver.proxyprotocol.ProxyHeader proxyHeader() {
        return host.connection().proxyHeader();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return host.connection().remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return host.connection().localAddress();
    }

    @Override
    public SSLSession sslSession() {
        SSLSocket s = host.connection().sslSocket();
        return s == null ? null : s.getSession();
    }

    @Override
    public InputStream requestBody() {
        return body;
    }

    @Override
    public Headers requestTrailers() {
        return body.trailers();
    }

    @Override
    public void sendInterim(int status, Headers headers) throws IOException {
        if (response != null || !interimAllowed) {
            return;
        }
        ResponseFields.validate(headers);
        host.sendHeaders(this, ResponseHead.fields(status, headers, ResponseFraming.INTERIM), false);
    }

    @Override
    public OutputStream sendResponse(int status, Headers headers, long length) throws IOException {
        if (response != null) {
            throw new IOException("headers already sent");
        }
        if (status == 101) {
            throw new IOException("101 Switching Protocols is not allowed in HTTP/2 (RFC 9113 §8.6)");
        }
        int handlerFields = ResponseFields.validate(headers);
        checkSendable();
        this.status = status;
        this.responseHeaders = headers;
        interimAllowed = false;
        ResponseFraming framing = ResponseFraming.of(request.method(), status, length, handlerFields,
                host.connection().config().serverHeader());
        boolean tunnel = framing.body() == ResponseFraming.Body.TUNNEL;
        this.tunnel = tunnel;
        boolean noBody = framing.body() == ResponseFraming.Body.NONE;
        Http2ResponseBody out = new Http2ResponseBody(this, noBody ? 0 : Math.max(-1, framing.contentLength()));
        response = out;
        List<HeaderField> fields = ResponseHead.fields(status, headers, framing);
        if (noBody || tunnel) {
            // A tunnel's client waits for the 2xx before it sends, so the head cannot wait for data.
            host.sendHeaders(this, fields, noBody);
        } else {
            // Held back so that head and body leave together; the first body bytes or a flush send it.
            heldHead = new ConnectionWriter.HeaderBlock(id, fields, false);
        }
        return out;
    }

    @Override
    public String connectionId() {
        return Long.toString(host.connection().id());
    }

    @Override
    public String protocolRequestId() {
        return Integer.toString(id);
    }

    @Override
    public CarrierTurn turn() {
        return turn;
    }

    @Override
    public boolean responseStarted() {
        return response != null;
    }

    @Override
    public void authenticated(String user) {
        this.user = user;
    }

    @Override
    public void complete() {
        if (completed) {
            return;
        }
        completed = true;
        Http2ResponseBody out = response;
        if (out == null) {
            int code = bodyFailureStatus != 0 ? bodyFailureStatus : 500;
            sendError(code, code == 413 ? "request body too large"
                    : handlerFailed ? "handler failed" : "handler sent no response");
        } else if (!out.isClosed()) {
            // The exchange was closed around an unfinished body.
            reset(ErrorCode.INTERNAL_ERROR);
        }
        body.close();
        if (state() == StreamState.HALF_CLOSED_LOCAL) {
            awaitRequestEnd();
        }
        // Logged before the stream counts as ended, so that a stop waiting for the connection finds the line queued.
        AccessLog log = host.connection().accessLog();
        if (log != null && log.enabled()) {
            Http2ResponseBody r = response;
            log.log(LogEntry.endingNow(clientAddress(), localAddress(), user, request.method(), rawTarget(),
                    "HTTP/2.0", status, r == null ? -1 : r.bytesWritten(), startNanos, requestHeaders(),
                    responseHeaders));
        }
        host.exchangeEnded(this);
    }

    /** Sends END_STREAM after what the tunnel's response stream buffered; call from the thread writing it. */
    @Override
    public void shutdownTunnelOutput() throws IOException {
        Http2ResponseBody out = response;
        if (!tunnel || out == null) {
            throw new IOException("not a tunnel: nothing to half-close");
        }
        out.endStream();
    }

    @Override
    public void abort(Throwable cause) {
        if (completed) {
            return;
        }
        handlerFailed = true;
        Http2ResponseBody out = response;
        if (tunnel) {
            // A broken tunnel is a TCP connection error (RFC 9113 §8.5), for WebSocket a TCP RST (RFC 8441 §5);
            // either side may still be open. Nothing is sent if both have ended.
            reset(request.protocol() == null ? ErrorCode.CONNECT_ERROR : ErrorCode.CANCEL);
        } else if (out != null && !out.isClosed()) {
            reset(ErrorCode.INTERNAL_ERROR);
        }
        complete();
    }

    /**
     * The exchange is over, the response complete and the request still arriving (half-closed (local)). The stream
     * stays open for the rest of it, checked as RFC 9113 §8.1 asks and discarded, unless the client should stop
     * at once (RST_STREAM NO_ERROR, §8.1): a tunnel's handler closed (a TCP close); the request body already
     * failed (too large, too slow); a client announcing a body with {@code expect: 100-continue} was never asked
     * for it; the connection is going away; or no drain is allowed.
     */
    private void awaitRequestEnd() {
        ServerConfig config = host.connection().config();
        String stop = tunnel || request.method().equals("CONNECT") ? "tunnel closed"
                : bodyFailureStatus != 0 ? "request body failed"
                : request.expectContinue() && !bodyRequested ? "body announced with 100-continue not asked for"
                : host.goingAway() ? "connection going away"
                : config.maxDrainSize() == 0 ? "no drain allowed"
                : null;
        if (stop != null) {
            stopRequest(stop);
            return;
        }
        awaitingRequestSince = System.nanoTime() | 1; // never 0
        if (host.goingAway()) {
            stopRequest("connection going away"); // GOAWAY went out meanwhile, and may have missed this stream
        }
    }

    /** Answers with a short text error if the stream can still carry a response. */
    private void sendError(int code, String message) {
        byte[] text = (code + " " + message + "\n").getBytes(StandardCharsets.UTF_8);
        Headers h = new Headers();
        h.set("Content-Type", "text/plain; charset=utf-8");
        try {
            OutputStream out = sendResponse(code, h, text.length);
            out.write(text);
            out.close(); // completes: a no-op, this exchange is completing already
        } catch (IOException e) {
            // reset or connection gone: nothing more to say
        }
    }
}
