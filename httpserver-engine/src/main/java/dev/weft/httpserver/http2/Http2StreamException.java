package dev.weft.httpserver.http2;

/** A stream error (RFC 9113 §5.4.2): the endpoint sends RST_STREAM for {@link #streamId()}. */
public final class Http2StreamException extends Http2Exception {

    private static final long serialVersionUID = 1L;

    private final int streamId;

    public Http2StreamException(int streamId, ErrorCode errorCode, String message) {
        super(errorCode, message);
        this.streamId = streamId;
    }

    public int streamId() {
        return streamId;
    }
}
