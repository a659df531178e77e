package dev.weft.httpserver.http2;

import com.sun.net.httpserver.Headers;
import dev.weft.httpserver.core.ClientClosedException;

import java.io.IOException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The states of one HTTP/2 stream (RFC 9113 §5.1) and their transitions: END_STREAM from either side, a
 * reset from either side, the connection going away. {@link Http2Stream} builds the exchange on top; the
 * split only separates the state machine from the exchange, the two are one object.
 */
abstract sealed class StreamLifecycle implements Http2RequestBody.Owner permits Http2Stream {

    enum State { OPEN, HALF_CLOSED_REMOTE, HALF_CLOSED_LOCAL, CLOSED }

    final int id;
    final StreamHost host;
    final Http2RequestBody body;
    /** Guards the state changes, and the receive window in {@link Http2Stream}. */
    final ReentrantLock lock = new ReentrantLock();
    /** Orders our frames for this stream in the writer: nothing is queued after our RST_STREAM. */
    final ConnectionWriter.StreamFrames frames = new ConnectionWriter.StreamFrames();
    // Guarded by lock.
    private boolean uncounted;
    // Written under lock, read without it.
    volatile State state;
    private volatile boolean resetSent;
    private volatile boolean resetReceived;

    StreamLifecycle(int id, StreamHost host, long bodyReadTimeoutNanos, boolean endStream) {
        this.id = id;
        this.host = host;
        this.body = new Http2RequestBody(this, bodyReadTimeoutNanos, endStream);
        this.state = endStream ? State.HALF_CLOSED_REMOTE : State.OPEN;
    }

    int id() {
        return id;
    }

    /** Whether the client has ended its side (END_STREAM or reset): more DATA or HEADERS are an error. */
    boolean remoteClosed() {
        State s = state;
        return s == State.HALF_CLOSED_REMOTE || s == State.CLOSED;
    }

    /**
     * Takes the stream off the connection's count of concurrent streams.
     *
     * @return whether this call did (it is done once, by whichever thread comes first)
     */
    boolean leaveStreamCount() {
        lock.lock();
        try {
            if (uncounted) {
                return false;
            }
            uncounted = true;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The client sent END_STREAM. */
    void remoteEnded(Headers trailers) {
        body.end(trailers);
        boolean closedNow;
        lock.lock();
        try {
            closedNow = state == State.HALF_CLOSED_LOCAL;
            state = closedNow ? State.CLOSED : State.HALF_CLOSED_REMOTE;
        } finally {
            lock.unlock();
        }
        if (closedNow) {
            host.streamClosed(this, ClosedStreams.How.ENDED);
        }
    }

    /** We sent END_STREAM. */
    void localEnded() {
        boolean closedNow;
        lock.lock();
        try {
            if (state == State.CLOSED) {
                return;
            }
            closedNow = state == State.HALF_CLOSED_REMOTE;
            state = closedNow ? State.CLOSED : State.HALF_CLOSED_LOCAL;
        } finally {
            lock.unlock();
        }
        if (closedNow) {
            host.streamClosed(this, ClosedStreams.How.ENDED);
        }
    }

    /** The client reset the stream. */
    void resetByPeer() {
        closeFromPeerSide("stream reset by the client");
    }

    /**
     * Resets the stream from our side with {@code code}, unless it is closed already.
     *
     * @return whether this call reset it
     */
    boolean reset(ErrorCode code) {
        lock.lock();
        try {
            if (state == State.CLOSED) {
                return false;
            }
            state = State.CLOSED;
            resetSent = true;
        } finally {
            lock.unlock();
        }
        body.fail(new ClientClosedException("stream reset: " + code));
        host.sendReset(frames, id, code);
        host.streamClosed(this, ClosedStreams.How.RESET_BY_US);
        return true;
    }

    /** The connection is gone. */
    void connectionClosed() {
        closeFromPeerSide("connection closed");
    }

    private void closeFromPeerSide(String reason) {
        lock.lock();
        try {
            if (state == State.CLOSED) {
                return;
            }
            state = State.CLOSED;
            resetReceived = true;
        } finally {
            lock.unlock();
        }
        body.fail(new ClientClosedException(reason));
        host.streamClosed(this, ClosedStreams.How.RESET_BY_PEER);
    }

    /** Throws if nothing more may be sent on this stream. */
    void checkWritable() throws IOException {
        if (resetReceived) {
            throw new ClientClosedException("stream reset by the client");
        }
        if (resetSent) {
            throw new ClientClosedException("stream reset");
        }
        State s = state;
        if (s == State.CLOSED || s == State.HALF_CLOSED_LOCAL) {
            throw new IOException("response already complete");
        }
    }
}
