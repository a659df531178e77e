package dev.weft.httpserver.http1;

import dev.weft.httpserver.accesslog.AccessLog;
import dev.weft.httpserver.accesslog.LogEntry;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.CarrierTurn;
import dev.weft.httpserver.core.Connection;
import dev.weft.httpserver.core.ConnectionInput;
import dev.weft.httpserver.core.ConnectionOutput;
import dev.weft.httpserver.core.ConnectionServer;
import dev.weft.httpserver.core.ExchangeDispatcher;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.ServerStats;

import java.io.EOFException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;

/**
 * Serves HTTP/1.0 and HTTP/1.1 on one connection, on the connection's own thread, reading top to bottom:
 * wait for a request, parse its head, dispatch it, wait for the exchange to complete, make the connection
 * reusable (or close it), repeat.
 *
 * <p>Pipelined requests are parsed back to back from the buffer and answered strictly in order. A response
 * leaves when its exchange completes unless the next request has already arrived; the rest of a batch
 * leaves as soon as the connection would wait for input ({@link ConnectionInput#flushBeforeBlocking}), so
 * the responses to a batch of pipelined requests share one write while a finished response never waits for
 * the next request.
 *
 * <p>The thread shares its carrier by {@link CarrierTurn}: after a request, once it has run for a time slice it
 * lets the other connections go first, whether or not the next request is already buffered; a connection whose
 * requests are heavy goes to the back of the line whenever it has waited for a request.
 */
public final class Http1Connection implements ConnectionServer {

    private static final System.Logger LOG = System.getLogger(Http1Connection.class.getName());

    private final ExchangeDispatcher dispatcher;

    public Http1Connection(ExchangeDispatcher dispatcher) {
        this.dispatcher = dispatcher;
    }

    @Override
    public void serve(Connection c) throws IOException {
        ConnectionInput in = c.input();
        ConnectionOutput out = c.output();
        in.flushBeforeBlocking(out);
        AccessLog log = c.accessLog();
        AccessLog.Batch logLines = log != null ? log.batch() : null;
        try {
            serve(c, in, out, new RequestParser(c.config()), c.turn(), logLines);
        } finally {
            if (logLines != null) {
                logLines.submit();
            }
        }
    }

    /** The connection's request loop; {@code logLines} (null when the access log is off) collects its lines. */
    private void serve(Connection c, ConnectionInput in, ConnectionOutput out, RequestParser parser, CarrierTurn turn,
                       AccessLog.Batch logLines) throws IOException {
        ServerConfig config = c.config();
        ServerStats stats = c.stats();
        long idleNanos = config.idleTimeout().toNanos();
        long headerNanos = config.headerReadTimeout().toNanos();
        // The clock is read once per request where the thread may have waited (after a read that parked, after
        // the handler) and that reading serves until the next: on a pipelined connection each read costs as
        // much as parsing a request.
        long now = System.nanoTime();
        while (true) {
            if (turn.over(now)) {
                // A client that keeps the input full (pipelining, or answering within microseconds) never makes
                // this thread wait for a read, and virtual threads are not preempted: the others go first now.
                out.flush(); // what is answered leaves now, not after the turn of the others
                if (logLines != null) {
                    logLines.submit();
                }
                turn.giveWay();
                now = System.nanoTime();
            }
            if (!c.markIdle()) {
                out.flush();
                return;
            }
            if (in.buffered() == 0) {
                // No Thread.yield() before this read, although one often spares the park / poller / unpark
                // round trip: yielded threads go back on their carrier's local queue, ahead of the JDK's
                // read pollers, so a steady stream of them, one per request, stalls every connection that
                // did park for up to hundreds of milliseconds.
                // The connection waits for its next request: what is answered leaves now, the output buffer goes
                // back to the pool until the next response and reads use the small input buffer again, so that an
                // idle connection holds as little as it can.
                if (out.pending() > 0) {
                    out.flush();
                }
                if (logLines != null) {
                    logLines.submit(); // the lines of the batch just answered go to the writer together
                }
                out.park();
                in.park();
                long readStarted = System.nanoTime();
                in.idleDeadline(readStarted, idleNanos);
                try {
                    if (in.fill() < 0) {
                        return;
                    }
                    turn.joinLineIfWokenSince(readStarted);
                } catch (SocketTimeoutException e) {
                    if (!(e instanceof ConnectionInput.EvictedException)) {
                        stats.idleClose(); // an eviction was counted where it was decided
                    }
                    return;
                }
                now = System.nanoTime();
            }
            if (!c.markActive()) {
                return;
            }
            in.requestDeadline(now + headerNanos);
            RequestHead head;
            try {
                head = parser.parse(in);
                if (head == null) {
                    return;
                }
            } catch (BadRequestException e) {
                c.requestReceived();
                stats.protocolError(e.kind());
                LOG.log(Level.DEBUG, () -> "rejected request from " + c.remoteAddress() + ": " + e.getMessage());
                sendErrorAndClose(c, e.status(), e.getMessage());
                return;
            } catch (SocketTimeoutException e) {
                if (!(e instanceof ConnectionInput.EvictedException)) {
                    stats.protocolError(ProtocolError.HEADER_TIMEOUT);
                    stats.timeoutClose();
                    LOG.log(Level.DEBUG, () -> "request head from " + c.remoteAddress() + " not received in time");
                }
                sendErrorAndClose(c, 408, "request head not received in time");
                return;
            } catch (EOFException e) {
                stats.protocolError(ProtocolError.UNEXPECTED_EOF);
                return;
            }
            c.requestReceived();
            Http1Exchange exchange = new Http1Exchange(c, head, now);
            stats.exchangeStarted();
            boolean reusable;
            try {
                // What the dispatch costs this thread: the whole handler when it runs inline, little when the
                // server hands it to other threads (the wait for them below is no work of this thread's).
                turn.workStarted(now);
                dispatcher.dispatch(exchange);
                now = System.nanoTime();
                turn.workEnded(now);
                if (exchange.awaitCompletion()) {
                    now = System.nanoTime();
                }
                if (c.isClosed()) {
                    return;
                }
                boolean drains = !exchange.body().isComplete();
                reusable = finish(c, exchange);
                if (drains) {
                    now = System.nanoTime(); // reading the rest of the body may have waited for the client
                }
            } finally {
                stats.exchangeEnded();
            }
            if (logLines != null && logLines.enabled()) {
                ResponseBody r = exchange.response();
                logLines.add(LogEntry.ending(now, exchange.clientAddress(), c.localAddress(), exchange.user(),
                        head.method(), head.target(), head.protocol(), exchange.status(),
                        r == null ? -1 : r.bytesWritten(), exchange.startNanos(), exchange.requestHeaders(),
                        exchange.responseHeaders()));
            }
            if (!reusable) {
                closeAfterResponse(c, exchange);
                return;
            }
            if (in.buffered() == 0) {
                out.flush();
                c.flushByteCounts();
            }
        }
    }

    /**
     * Brings the connection to a clean state after an exchange: answers for a handler that did not, checks
     * the response was framed completely and consumes what is left of the request body.
     *
     * @return whether the connection can carry another request
     */
    private static boolean finish(Connection c, Http1Exchange exchange) throws IOException {
        RequestBody body = exchange.body();
        BodyException bodyFailure = body.failure();
        if (bodyFailure != null) {
            countBodyFailure(c, bodyFailure);
        }
        if (exchange.upgraded()) {
            return false;
        }
        if (c.output().failed()) {
            c.stats().protocolError(ProtocolError.RESPONSE_ABORTED);
            LOG.log(Level.DEBUG, () -> "client " + c.remoteAddress() + " went away before it had the response to "
                    + exchange.head().method() + " " + exchange.head().target());
            return false;
        }
        if (!exchange.responseStarted()) {
            int status = bodyFailure != null ? bodyFailure.status() : 500;
            String message = bodyFailure != null ? bodyFailure.getMessage()
                    : exchange.failure() != null ? "handler failed" : "handler sent no response";
            ResponseHeadWriter.writeError(c.output(), status, message, c.config().serverHeader());
            return false;
        }
        if (exchange.failure() != null || bodyFailure != null || !exchange.response().isComplete()) {
            return false;
        }
        if (!body.isComplete()) {
            if (exchange.head().expectContinue() && !body.started()) {
                return false;
            }
            // The response has been sent (Http1Exchange.complete, or the flush before this read blocks).
            long deadline = System.nanoTime() + c.config().drainTimeout().toNanos();
            if (!body.drain(c.config().maxDrainSize(), deadline)) {
                BodyException drainFailure = body.failure();
                if (drainFailure != null) {
                    countBodyFailure(c, drainFailure);
                }
                return false;
            }
        }
        return !exchange.closeAfter();
    }

    private static void countBodyFailure(Connection c, BodyException failure) {
        ProtocolError kind = failure.kind();
        if (kind != null) {
            c.stats().protocolError(kind);
        }
        if (kind == ProtocolError.BODY_TIMEOUT || kind == ProtocolError.DRAIN_TIMEOUT
                || kind == ProtocolError.REQUEST_DATA_RATE) {
            c.stats().timeoutClose();
        }
        LOG.log(Level.DEBUG, () -> "request body from " + c.remoteAddress() + " failed: " + failure.getMessage());
    }

    private static void closeAfterResponse(Connection c, Http1Exchange exchange) {
        RequestBody body = exchange.body();
        if (!body.isComplete() || c.input().buffered() > 0) {
            // Unread input would make the close a reset that can destroy the response in flight.
            c.closeGracefully();
        } else {
            try {
                c.output().flush();
            } catch (IOException ignored) {
                // closing anyway
            }
            c.close();
        }
    }

    private static void sendErrorAndClose(Connection c, int status, String message) {
        try {
            ResponseHeadWriter.writeError(c.output(), status, message, c.config().serverHeader());
        } catch (IOException e) {
            c.close();
            return;
        }
        c.closeGracefully();
    }
}
