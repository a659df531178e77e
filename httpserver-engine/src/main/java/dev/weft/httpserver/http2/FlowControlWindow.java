package dev.weft.httpserver.http2;

/**
 * One HTTP/2 flow-control window (RFC 9113 §5.2, §6.9): the connection window (stream 0) or a stream's.
 * The size may become negative after a SETTINGS_INITIAL_WINDOW_SIZE reduction (§6.9.2) and never exceeds
 * 2^31-1. Errors are raised as stream errors for stream windows and connection errors for the connection
 * window (see {@link #isStreamLevel()}). Not thread-safe: the connection's send flow control guards the send
 * windows under its lock, the reader thread owns the connection's receive window, a stream's lock guards its own.
 */
public final class FlowControlWindow {

    public static final int MAX_SIZE = Integer.MAX_VALUE;

    private final int streamId;
    private long size;

    /** A window for {@code streamId} (0 = the connection) starting at {@code initialSize} octets. */
    public FlowControlWindow(int streamId, int initialSize) {
        if (streamId < 0 || initialSize < 0) {
            throw new IllegalArgumentException("stream id and initial size must be non-negative");
        }
        this.streamId = streamId;
        this.size = initialSize;
    }

    public int streamId() {
        return streamId;
    }

    /** True for a stream window, false for the connection window. */
    public boolean isStreamLevel() {
        return streamId != 0;
    }

    public int size() {
        return (int) size;
    }

    /** Octets that may be sent now (0 when the window is empty or negative). */
    public int available() {
        return (int) Math.max(0, size);
    }

    /**
     * Takes {@code n} octets out of the window, e.g. for a received DATA frame's whole payload.
     *
     * @throws Http2Exception FLOW_CONTROL_ERROR if {@code n} exceeds the window; the window is unchanged
     */
    public void consume(int n) throws Http2Exception {
        if (n < 0) {
            throw new IllegalArgumentException("negative length: " + n);
        }
        if (n > size) {
            throw error("flow-control window of " + size + " exceeded by " + n + " octets");
        }
        size -= n;
    }

    /** Takes up to {@code max} octets if any are available, returning how many were taken (sender side). */
    public int tryConsume(int max) {
        int n = (int) Math.min(Math.max(0, size), Math.max(0, max));
        size -= n;
        return n;
    }

    /**
     * Grows the window by a WINDOW_UPDATE increment.
     *
     * @throws Http2Exception FLOW_CONTROL_ERROR if the window would exceed 2^31-1; the window is unchanged
     */
    public void increment(int delta) throws Http2Exception {
        if (delta < 1) {
            throw new IllegalArgumentException("increment must be positive: " + delta);
        }
        if (size + delta > MAX_SIZE) {
            throw error("flow-control window overflow: " + size + " + " + delta);
        }
        size += delta;
    }

    /**
     * Applies the difference between a new and old SETTINGS_INITIAL_WINDOW_SIZE (§6.9.2); may make the
     * window negative. Overflow is always a connection error.
     */
    public void adjustInitialSize(int oldInitial, int newInitial) throws Http2ConnectionException {
        long adjusted = size + ((long) newInitial - oldInitial);
        if (adjusted > MAX_SIZE) {
            throw new Http2ConnectionException(ErrorCode.FLOW_CONTROL_ERROR,
                    "SETTINGS_INITIAL_WINDOW_SIZE change overflows window of stream " + streamId);
        }
        size = adjusted;
    }

    private Http2Exception error(String message) {
        return isStreamLevel()
                ? new Http2StreamException(streamId, ErrorCode.FLOW_CONTROL_ERROR, message)
                : new Http2ConnectionException(ErrorCode.FLOW_CONTROL_ERROR, message);
    }

    @Override
    public String toString() {
        return "FlowControlWindow[stream=" + streamId + ", size=" + size + "]";
    }
}
