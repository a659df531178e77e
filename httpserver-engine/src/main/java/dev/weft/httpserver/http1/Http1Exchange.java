package dev.weft.httpserver.http1;

import com.sun.net.httpserver.Headers;
import dev.weft.httpserver.core.CarrierTurn;
import dev.weft.httpserver.core.Connection;
import dev.weft.httpserver.core.ConnectionOutput;
import dev.weft.httpserver.core.ExchangeTransport;
import dev.weft.httpserver.core.ResponseFields;
import dev.weft.httpserver.core.ResponseFraming;

import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSession;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * One HTTP/1.x request and its response. Created and awaited by the connection thread; its methods are
 * called by whichever thread runs the handler while the connection thread waits in
 * {@link #awaitCompletion()}.
 */
final class Http1Exchange implements ExchangeTransport {

    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final Connection connection;
    private final RequestHead head;
    private final RequestBody body;
    private final long startNanos;
    private URI uri;
    private ResponseBody response;
    private int status;
    /** The response fields as sent, for the access log. */
    private Headers responseHeaders;
    private boolean closeAfter;
    private boolean upgraded;
    private String user;
    private Throwable failure;
    private volatile boolean completed;
    private volatile Thread waiter;
    /** The client's address from trusted forwarded headers, or null for the connection's peer. */
    private volatile InetSocketAddress clientAddress;

    /** An exchange for {@code head}, whose reading began at {@code startNanos} ({@link System#nanoTime()}). */
    Http1Exchange(Connection connection, RequestHead head, long startNanos) {
        this.connection = connection;
        this.head = head;
        this.startNanos = startNanos;
        var in = connection.input();
        var config = connection.config();
        int timeout = (int) config.bodyReadTimeout().toMillis();
        RequestBody.FirstReadListener firstRead = head.expectContinue() ? this::sendContinue : null;
        if (head.chunked()) {
            body = new ChunkedInputStream(in, config, firstRead);
        } else if (head.contentLength() > 0) {
            body = new FixedLengthInputStream(in, head.contentLength(), timeout, firstRead);
        } else {
            body = new RequestBody.Empty(in);
        }
        if (!(body instanceof RequestBody.Empty)) {
            in.restartBodyMeter();
        }
    }

    RequestHead head() {
        return head;
    }

    RequestBody body() {
        return body;
    }

    ResponseBody response() {
        return response;
    }

    int status() {
        return status;
    }

    boolean closeAfter() {
        return closeAfter;
    }

    boolean upgraded() {
        return upgraded;
    }

    Throwable failure() {
        return failure;
    }

    String user() {
        return user;
    }

    Headers responseHeaders() {
        return responseHeaders;
    }

    long startNanos() {
        return startNanos;
    }

    private void sendContinue() throws IOException {
        // RFC 9110 §10.1.1: only while no final response has been sent.
        if (response == null) {
            ConnectionOutput out = connection.output();
            out.write(CONTINUE, 0, CONTINUE.length);
            out.flush();
        }
    }

    @Override
    public String method() {
        return head.method();
    }

    @Override
    public URI requestUri() {
        if (uri == null) {
            try {
                uri = RequestTargets.toUri(head.target(), head.form());
            } catch (URISyntaxException e) {
                // The parser admits only targets the URI grammar accepts.
                throw new IllegalStateException("validated target is not a URI: " + head.target(), e);
            }
        }
        return uri;
    }

    @Override
    public String routingPath() {
        try {
            return RequestTargets.routingPath(head.target(), head.form());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("validated target is not a URI: " + head.target(), e);
        }
    }

    @Override
    public String protocol() {
        return head.protocol();
    }

    @Override
    public String rawTarget() {
        return head.target();
    }

    @Override
    public Headers requestHeaders() {
        return head.headers();
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
        return connection.proxyHeader();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return connection.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return connection.localAddress();
    }

    @Override
    public SSLSession sslSession() {
        SSLSocket s = connection.sslSocket();
        return s == null ? null : s.getSession();
    }

    @Override
    public InputStream requestBody() {
        return upgraded ? connection.input() : body;
    }

    @Override
    public Headers requestTrailers() {
        return body instanceof ChunkedInputStream c ? c.trailers() : body.isComplete() ? new Headers() : null;
    }

    @Override
    public void sendInterim(int status, Headers headers) throws IOException {
        // RFC 9110 §15.2: a server MUST NOT send a 1xx response to an HTTP/1.0 client.
        if (head.minorVersion() == 0 || response != null) {
            return;
        }
        ResponseFields.validate(headers);
        ConnectionOutput out = connection.output();
        ResponseHeadWriter.write(out, status, headers, ResponseFraming.INTERIM, false, "");
        out.flush();
    }

    @Override
    public OutputStream sendResponse(int status, Headers headers, long length) throws IOException {
        if (response != null) {
            throw new IOException("headers already sent");
        }
        int handlerFields = ResponseFields.validate(headers);
        ConnectionOutput out = connection.output();
        out.restartRateMeter();
        this.status = status;
        this.responseHeaders = headers;
        ResponseFraming framing = ResponseFraming.of(head.method(), status, length, handlerFields,
                connection.config().serverHeader());
        if (framing.body() == ResponseFraming.Body.TUNNEL) {
            upgraded = true;
            closeAfter = true;
            // The raw connection now belongs to the handler: each read may wait up to the idle timeout, and
            // its writes may come from other threads while a read blocks.
            connection.input().readTimeoutNanos(connection.config().idleTimeout().toNanos());
            connection.input().flushBeforeBlocking(null);
            ResponseHeadWriter.write(out, status, headers, framing, false, null);
            out.flush();
            response = new ResponseBody.Raw(out, this::complete);
            return response;
        }
        closeAfter = !head.keepAlive() || connection.draining()
                || (handlerFields & ResponseFields.CONNECTION_CLOSE) != 0;
        boolean chunked = false;
        switch (framing.body()) {
            case NONE -> response = new ResponseBody.NoBody(out, this::complete, head.isHead());
            case FIXED -> response = new FixedLengthOutputStream(out, framing.contentLength(), this::complete);
            default -> {
                if (head.minorVersion() == 0) {
                    closeAfter = true;
                    response = new ResponseBody.CloseDelimited(out, this::complete);
                } else {
                    chunked = true;
                    response = new ChunkedOutputStream(out, this::complete);
                }
            }
        }
        if (head.expectContinue() && !body.started()) {
            // The client may or may not send the body it announced: the connection cannot be reused.
            closeAfter = true;
        }
        String connectionValue = closeAfter ? "close" : head.minorVersion() == 0 ? "keep-alive" : "";
        ResponseHeadWriter.write(out, status, headers, framing, chunked, connectionValue);
        return response;
    }

    @Override
    public void setResponseTrailers(Headers trailers) {
        if (response instanceof ChunkedOutputStream chunked) {
            try {
                ResponseFields.validate(trailers);
                chunked.trailers(trailers);
            } catch (IOException | NullPointerException e) {
                // an invalid trailer field is dropped rather than sent
                System.getLogger(Http1Exchange.class.getName()).log(System.Logger.Level.WARNING,
                        "response trailers not sent: " + e.getMessage());
            }
        }
    }

    @Override
    public String connectionId() {
        return Long.toString(connection.id());
    }

    @Override
    public CarrierTurn turn() {
        return connection.turn();
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
    public boolean closedByStop() {
        return connection.closedByStop();
    }

    @Override
    public boolean clientFailed() {
        return body.failure() != null || connection.output().failed();
    }

    /**
     * Ends the exchange: sends the response now, unless the next pipelined request is already buffered (its
     * response then leaves in the same write: the connection flushes before it waits for more input), and
     * wakes the connection thread. The response goes out before the handler can do anything else, so neither
     * what it throws afterwards nor a server stop can lose it.
     */
    @Override
    public void complete() {
        if (completed) {
            return;
        }
        if (response != null && !upgraded && failure == null && connection.input().buffered() == 0) {
            try {
                connection.output().flush();
            } catch (IOException e) {
                // The client went away; the connection thread sees the failed output and closes.
            }
        }
        completed = true;
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    @Override
    public void tunnelReadTimeout(Duration timeout) {
        // zero: without limit (a deadline no read reaches)
        connection.input().readTimeoutNanos(timeout.isZero() ? Long.MAX_VALUE / 4 : timeout.toNanos());
    }

    @Override
    public void releaseBuffers() throws IOException {
        if (upgraded) {
            connection.input().releaseBuffer();
            connection.output().releaseBuffer();
        }
    }

    @Override
    public void shutdownTunnelOutput() throws IOException {
        if (!(response instanceof ResponseBody.Raw raw)) {
            throw new IOException("not a raw connection or tunnel: nothing to half-close");
        }
        raw.endOutput();
        connection.shutdownOutput();
    }

    @Override
    public void breakOff(Throwable cause) {
        if (response != null && response.isComplete()) {
            complete();
            return;
        }
        failure = cause;
        if (response != null) {
            // Whatever the handler's thread still writes fails on the closed socket; nothing buffered is sent.
            connection.close();
        }
        complete();
    }

    @Override
    public void abort(Throwable cause) {
        if (response == null || !response.isComplete()) {
            failure = cause == null ? new IllegalStateException("exchange aborted") : cause;
            if (upgraded) {
                // Breaking off a raw connection means closing it; this also wakes a read blocked on it.
                connection.close();
            }
        }
        // else: the response was framed completely, so nothing is broken off and the connection stays usable.
        complete();
    }

    /**
     * Blocks the connection thread until the handler side completes the exchange or the connection closes.
     *
     * @return whether the thread had to wait (the handler ran on another thread and had not completed yet)
     */
    boolean awaitCompletion() {
        if (completed) {
            return false;
        }
        waiter = Thread.currentThread();
        long waitStarted = System.nanoTime();
        while (!completed && !connection.isClosed()) {
            LockSupport.park(this);
        }
        // The handler ran elsewhere: the time waited for it was not this thread's on its carrier.
        connection.turn().blockingCallReturned(waitStarted);
        return true;
    }
}
