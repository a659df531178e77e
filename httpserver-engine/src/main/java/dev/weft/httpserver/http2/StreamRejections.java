package dev.weft.httpserver.http2;

import dev.weft.httpserver.core.DateCache;
import dev.weft.httpserver.hpack.HeaderField;
import dev.weft.httpserver.stats.ProtocolError;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The reader's answers for streams it does not serve: a request refused before any handler sees it (400, 431,
 * 413, REFUSED_STREAM), a stream error (RST_STREAM, RFC 9113 §5.4.2), and DATA or HEADERS arriving on a stream
 * whose state does not take them (§5.1, the table in {@link StreamState}).
 */
final class StreamRejections {

    private static final System.Logger LOG = System.getLogger(Http2Connection.class.getName());

    private final Http2Connection h2;
    private final StreamHost host;
    private final FloodGuard guard;
    private final ClosedStreams closedStreams;

    StreamRejections(Http2Connection h2, StreamHost host, FloodGuard guard) {
        this.h2 = h2;
        this.host = host;
        this.guard = guard;
        this.closedStreams = host.closedStreams();
    }

    /**
     * Answers a request that is refused before any handler sees it, then stops its upload (§8.1).
     *
     * @param reason what is wrong with the request, the body of the answer
     * @param peerWindow the peer's initial stream window
     * @param endStream whether the request ended with its HEADERS
     */
    void rejectEarly(int id, int status, String reason, int peerWindow, boolean endStream) throws IOException {
        LOG.log(Level.DEBUG, () -> "answering stream " + id + " from " + host.connection().remoteAddress() + " with "
                + status + ": " + reason);
        byte[] text = (status + " " + reason + "\n").getBytes(StandardCharsets.US_ASCII);
        // The short explanation goes along only if the peer's windows take it now: the reader never waits.
        boolean withBody = text.length <= peerWindow && host.sendFlow().tryTakeConnectionWindow(text.length);
        List<HeaderField> fields = List.of(new HeaderField(":status", Integer.toString(status)),
                new HeaderField("content-type", "text/plain; charset=utf-8"),
                new HeaderField("content-length", withBody ? Integer.toString(text.length) : "0"),
                new HeaderField("date", DateCache.value()));
        h2.controlOrFlood(new ConnectionWriter.HeaderBlock(id, fields, !withBody));
        if (withBody) {
            h2.controlOrFlood(new ConnectionWriter.Frames(FrameWriter.dataFrame(id, text, 0, text.length, true)));
        }
        if (!endStream) {
            host.sendReset(id, ErrorCode.NO_ERROR);
        }
        closedStreams.add(id, StreamState.RESET_SENT);
    }

    /** Refuses a stream over the concurrency limit; refusals spend the reset budget. */
    void refuse(int id) throws IOException {
        guard.spendReset();
        host.sendReset(id, ErrorCode.REFUSED_STREAM);
        closedStreams.add(id, StreamState.RESET_SENT);
    }

    void streamError(Http2StreamException e) throws IOException {
        int id = e.streamId();
        LOG.log(Level.DEBUG, () -> "stream error on " + id + " from " + host.connection().remoteAddress() + ": "
                + e.errorCode() + " " + e.getMessage());
        host.connection().stats().protocolError(ProtocolError.HTTP2_STREAM_ERROR);
        Http2Stream stream = host.streams().get(id);
        if (stream == null || !stream.resetForClient(e.errorCode())) {
            host.sendReset(id, e.errorCode());
            if (closedStreams.find(id) == null) {
                closedStreams.add(id, StreamState.RESET_SENT);
            }
        }
        guard.spendReset();
    }

    /**
     * DATA or HEADERS for a stream whose id was used and whose state does not take them (§5.1, §6.1): a stream
     * that the client ended or reset, or that closed. Ignored after our RST_STREAM (such frames may cross it),
     * at the cost of a control frame.
     *
     * @param state           the stream's state if it is still in the table, else null (then looked up among the
     *                        recently closed streams)
     * @param highestStreamId the highest stream id the client has opened
     */
    void notAccepted(int id, StreamState state, boolean headers, int highestStreamId) throws IOException {
        StreamState s = state != null ? state : closedStreams.find(id);
        if (s == null) {
            if (headers) {
                throw new Http2ConnectionException(ErrorCode.PROTOCOL_ERROR,
                        "stream id " + id + " is not greater than " + highestStreamId);
            }
            throw new Http2StreamException(id, ErrorCode.STREAM_CLOSED, "DATA on closed stream " + id);
        }
        String frame = headers ? "HEADERS" : "DATA";
        switch (s) {
            case RESET_SENT -> guard.spendControl(); // §5.1: frames in flight when we reset the stream
            case CLOSED -> throw new Http2ConnectionException(ErrorCode.STREAM_CLOSED,
                    frame + " on closed stream " + id);
            case HALF_CLOSED_REMOTE -> throw new Http2StreamException(id, ErrorCode.STREAM_CLOSED,
                    frame + " after END_STREAM");
            case RESET_RECEIVED -> throw new Http2StreamException(id, ErrorCode.STREAM_CLOSED,
                    frame + " after RST_STREAM");
            case OPEN, HALF_CLOSED_LOCAL -> throw new IllegalStateException(frame + " is taken in state " + s);
        }
    }
}
