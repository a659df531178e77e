package dev.weft.httpserver.http2;

/**
 * Where one stream is, as the server sees it (RFC 9113 §5.1), each direction tracked on its own: the client's
 * request side ("remote") and our response side ("local"). A server never reserves streams (it does not push),
 * and an idle stream has no object: a stream exists from the HEADERS that open it. The closed states remember
 * how the stream closed, because a late frame's meaning depends on it ({@link ClosedStreams} keeps that once
 * the stream object is gone).
 *
 * <p>Our own transitions (END_STREAM and RST_STREAM sent) happen under the connection writer's lock at the
 * moment the frame is queued, so the state has changed before the client can see the frame: a frame the client
 * sends after seeing ours always meets the new state. The client's transitions happen on the reader thread as
 * its frames arrive.
 *
 * <table>
 *   <caption>Frames received in each state (besides PRIORITY, accepted and ignored in every state)</caption>
 *   <tr><th>state</th><th>DATA</th><th>HEADERS</th><th>WINDOW_UPDATE</th><th>RST_STREAM</th></tr>
 *   <tr><td>{@link #OPEN}, {@link #HALF_CLOSED_LOCAL}</td><td>request body</td><td>trailers, must end the
 *       stream</td><td>grows the send window</td><td>closes</td></tr>
 *   <tr><td>{@link #HALF_CLOSED_REMOTE}</td><td colspan="2">stream error STREAM_CLOSED</td>
 *       <td>grows the send window</td><td>closes</td></tr>
 *   <tr><td>{@link #CLOSED}</td><td colspan="2">connection error STREAM_CLOSED</td>
 *       <td colspan="2">ignored (may cross our END_STREAM)</td></tr>
 *   <tr><td>{@link #RESET_SENT}</td><td colspan="2">ignored (may cross our RST_STREAM)</td>
 *       <td colspan="2">ignored</td></tr>
 *   <tr><td>{@link #RESET_RECEIVED}</td><td colspan="2">stream error STREAM_CLOSED</td>
 *       <td colspan="2">ignored</td></tr>
 * </table>
 *
 * <p>Every frame that is ignored, or that a client can send without effect, is charged to the connection's
 * flood budgets ({@link FloodGuard}).
 */
enum StreamState {

    /**
     * Request and response both under way. Our END_STREAM → {@link #HALF_CLOSED_LOCAL}; the client's
     * END_STREAM → {@link #HALF_CLOSED_REMOTE}; our RST_STREAM → {@link #RESET_SENT}; the client's →
     * {@link #RESET_RECEIVED}.
     */
    OPEN,

    /**
     * The client ended its request (END_STREAM, on HEADERS, DATA or trailers); our response is under way. More
     * DATA or HEADERS from the client are a stream error STREAM_CLOSED (§5.1). Our END_STREAM →
     * {@link #CLOSED}; a RST_STREAM either way → {@link #RESET_SENT} or {@link #RESET_RECEIVED}.
     */
    HALF_CLOSED_REMOTE,

    /**
     * Our response is complete (END_STREAM queued) while the request is still arriving, e.g. from a handler
     * that answered without reading the body. The client's frames are checked exactly as in {@link #OPEN}: DATA
     * against the flow-control window and the declared {@code content-length} (§8.1.1), trailers must carry
     * END_STREAM and no pseudo-header (§8.1), WINDOW_UPDATE must not overflow the send window (§6.9.1). What
     * arrives after the exchange is over is discarded and its flow-control credit returned. The client's
     * END_STREAM → {@link #CLOSED}; a RST_STREAM either way → {@link #RESET_SENT} or {@link #RESET_RECEIVED}.
     * Once the exchange is over, we ask the client to stop with RST_STREAM NO_ERROR (§8.1) when the rest of the
     * request exceeds the server's drain limits, when the connection is going away, or when the client was
     * never asked for a body it announced with {@code expect: 100-continue}.
     */
    HALF_CLOSED_LOCAL,

    /** Both sides sent END_STREAM. Terminal. */
    CLOSED,

    /** We sent RST_STREAM (a stream error, a cut-off, or NO_ERROR after a complete response). Terminal. */
    RESET_SENT,

    /** The client sent RST_STREAM, or the connection ended under the stream. Terminal. */
    RESET_RECEIVED;

    /** Whether the stream is closed (one of the terminal states). */
    boolean isClosed() {
        return ordinal() >= CLOSED.ordinal();
    }

    /** Whether the client may still send DATA and trailers. */
    boolean remoteOpen() {
        return this == OPEN || this == HALF_CLOSED_LOCAL;
    }

    /** Whether we may still send response frames. */
    boolean localOpen() {
        return this == OPEN || this == HALF_CLOSED_REMOTE;
    }
}
