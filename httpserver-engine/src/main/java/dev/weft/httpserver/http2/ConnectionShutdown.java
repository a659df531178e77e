package dev.weft.httpserver.http2;

import dev.weft.httpserver.core.Connection;
import dev.weft.httpserver.http2.Frame.GoAwayFrame;
import dev.weft.httpserver.stats.ProtocolError;

import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How an HTTP/2 connection ends: one GOAWAY (RFC 9113 §6.8) on a connection error, an idle timeout or a
 * graceful stop; the drain of a graceful stop (open streams finish, then the connection closes); and the
 * teardown when the reader leaves.
 */
final class ConnectionShutdown {

    private static final System.Logger LOG = System.getLogger(Http2Connection.class.getName());

    private final Http2Connection h2;
    private final StreamHost host;
    private final Connection connection;
    /** The reader's lock around accepting a stream id, so that GOAWAY names the last one accepted. */
    private final ReentrantLock streamIdLock;

    ConnectionShutdown(Http2Connection h2, StreamHost host, ReentrantLock streamIdLock) {
        this.h2 = h2;
        this.host = host;
        this.connection = host.connection();
        this.streamIdLock = streamIdLock;
    }

    /** A connection error, the client's doing (a flood included): counted, logged at DEBUG, GOAWAY. */
    void connectionError(Http2ConnectionException e) {
        boolean calm = e.errorCode() == ErrorCode.ENHANCE_YOUR_CALM;
        connection.stats().protocolError(calm ? ProtocolError.HTTP2_FLOOD : ProtocolError.HTTP2_CONNECTION_ERROR);
        LOG.log(Level.DEBUG, () -> "HTTP/2 connection error with " + connection.remoteAddress() + ": "
                + e.errorCode() + " " + e.getMessage());
        goAway(e.errorCode(), e.getMessage());
    }

    /** Sends GOAWAY once, naming the last stream we will process. */
    void goAway(ErrorCode code, String message) {
        streamIdLock.lock();
        try {
            if (host.goAwaySent().compareAndSet(false, true)) {
                int last = h2.stopAcceptingStreams();
                connection.stats().goAwaySent();
                byte[] debug = message == null ? StreamHost.EMPTY : message.getBytes(StandardCharsets.UTF_8);
                host.writer().sendFinal(new ConnectionWriter.Frames(
                        host.encoder().encode(new GoAwayFrame(last, code, debug))));
            }
        } finally {
            streamIdLock.unlock();
        }
        host.stopAwaitingRequests();
    }

    /**
     * A graceful stop (called from the stopping thread, possibly many times): announce GOAWAY, let the open
     * streams finish, then close.
     */
    void drain() {
        goAway(ErrorCode.NO_ERROR, "server stopping");
        if (host.counts().open() == 0) {
            host.closeSoon();
        }
    }

    /** The reader is leaving: fail what is open, let the writer send what is queued, close. */
    void finish(Thread writerThread) {
        boolean stopping = connection.draining();
        for (Http2Stream s : host.streams().values()) {
            s.connectionClosed();
            if (stopping) {
                // The server is stopping and its grace period is over: stop handlers still at work, as
                // HTTP/1.1 does for a handler running on its connection's thread.
                s.interruptHandler();
            }
        }
        host.sendFlow().close();
        ConnectionWriter writer = host.writer();
        writer.close();
        if (!writer.awaitFinished(1_000_000_000L)) {
            connection.close();
        }
        try {
            writerThread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (host.goAwaySent().get() && !connection.isClosed()) {
            connection.closeGracefully(); // lets the client read our GOAWAY before the socket goes
        }
    }
}
