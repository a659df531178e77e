package dev.weft.httpserver.http2;

import com.sun.net.httpserver.Headers;
import dev.weft.httpserver.core.ClientClosedException;

import java.io.IOException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The transitions of one stream between its {@link StreamState}s: END_STREAM from either side, a reset from
 * either side, the connection going away; and the release of the stream once it is closed (off the connection's
 * table and counts, remembered in {@link ClosedStreams}). {@link Http2Stream} builds the exchange on top; the
 * split only separates the state machine from the exchange, the two are one object.
 */
abstract sealed class StreamLifecycle extends ConnectionWriter.StreamFrames implements Http2RequestBody.Owner
        permits Http2Stream {

    final int id;
    final StreamHost host;
    final Http2RequestBody body;
    /** Guards the state changes, and the receive window in {@link Http2Stream}. */
    final ReentrantLock lock = new ReentrantLock();
    // Guarded by lock.
    private boolean uncounted;
    /** Written under lock (our transitions also under the writer's lock), read without it. */
    private volatile StreamState state;

    /**
     * @param endStream     whether the request ended with its HEADERS
     * @param bodyAllowance the request body's minimum-rate account, or null for none
     */
    StreamLifecycle(int id, StreamHost host, long bodyReadTimeoutNanos, boolean endStream,
                    WaitAllowance bodyAllowance) {
        this.id = id;
        this.host = host;
        this.body = new Http2RequestBody(this, bodyReadTimeoutNanos, endStream, bodyAllowance);
        this.state = endStream ? StreamState.HALF_CLOSED_REMOTE : StreamState.OPEN;
    }

    int id() {
        return id;
    }

    StreamState state() {
        return state;
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

    // ---- the client's transitions (reader thread) ----

    /** The client sent END_STREAM (the stream's state accepted it: {@link StreamState#remoteOpen()}). */
    void remoteEnded(Headers trailers) {
        StreamState closed = null;
        lock.lock();
        try {
            if (state == StreamState.HALF_CLOSED_LOCAL) {
                closed = state = StreamState.CLOSED;
            } else if (state == StreamState.OPEN) {
                state = StreamState.HALF_CLOSED_REMOTE;
            }
        } finally {
            lock.unlock();
        }
        // After the state: a handler that reads the end of the body then answers finds the request ended.
        body.end(trailers);
        if (closed != null) {
            host.streamClosed(this, closed);
        }
    }

    /** The client reset the stream. */
    void resetByPeer() {
        closeFromPeerSide("stream reset by the client");
    }

    /** The connection is gone. */
    void connectionClosed() {
        closeFromPeerSide("connection closed");
    }

    private void closeFromPeerSide(String reason) {
        lock.lock();
        try {
            if (state.isClosed()) {
                return;
            }
            state = StreamState.RESET_RECEIVED;
        } finally {
            lock.unlock();
        }
        body.fail(new ClientClosedException(reason));
        host.streamClosed(this, StreamState.RESET_RECEIVED);
    }

    // ---- our transitions (any thread; the writer calls the hooks under its lock) ----

    /**
     * Resets the stream from our side with {@code code}, unless it is closed already.
     *
     * @return whether this call reset it
     */
    boolean reset(ErrorCode code) {
        if (!host.sendReset(this, code)) {
            return false;
        }
        body.fail(new ClientClosedException("stream reset: " + code));
        host.streamClosed(this, StreamState.RESET_SENT);
        return true;
    }

    @Override
    final boolean resetQueuing() {
        lock.lock();
        try {
            if (state.isClosed()) {
                return false;
            }
            state = StreamState.RESET_SENT;
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    final boolean endStreamQueued() {
        lock.lock();
        try {
            if (state == StreamState.OPEN) {
                state = StreamState.HALF_CLOSED_LOCAL;
                return false;
            }
            if (state != StreamState.HALF_CLOSED_REMOTE) {
                return false;
            }
            state = StreamState.CLOSED;
        } finally {
            lock.unlock();
        }
        // Closed for the client as soon as it reads the frame: it may open the next stream at once, so the
        // stream stops counting against the limit now, before the release.
        host.counts().leaveCount(this);
        return true;
    }

    /** Releases the stream after {@link #endStreamQueued} closed it. */
    final void endedByUs() {
        host.streamClosed(this, StreamState.CLOSED);
    }

    @Override
    final boolean isClosed() {
        return state.isClosed();
    }

    /** Throws if nothing more may be sent on this stream. */
    @Override
    final void checkSendable() throws IOException {
        switch (state) {
            case RESET_RECEIVED -> throw new ClientClosedException("stream reset by the client");
            case RESET_SENT -> throw new ClientClosedException("stream reset");
            case CLOSED, HALF_CLOSED_LOCAL -> throw new IOException("response already complete");
            case OPEN, HALF_CLOSED_REMOTE -> {
                // sendable
            }
        }
    }
}
