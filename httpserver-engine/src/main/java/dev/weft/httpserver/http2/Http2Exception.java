package dev.weft.httpserver.http2;

import java.io.IOException;

/** An HTTP/2 protocol violation, either for the whole connection or for one stream (RFC 9113 §5.4). */
public abstract sealed class Http2Exception extends IOException
        permits Http2ConnectionException, Http2StreamException {

    private static final long serialVersionUID = 1L;

    private final ErrorCode errorCode;

    protected Http2Exception(ErrorCode errorCode, String message) {
        super(message);
        this.errorCode = errorCode;
    }

    public ErrorCode errorCode() {
        return errorCode;
    }
}
