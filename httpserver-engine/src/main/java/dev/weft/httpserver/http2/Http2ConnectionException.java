package dev.weft.httpserver.http2;

/** A connection error (RFC 9113 §5.4.1): the endpoint sends GOAWAY with {@link #errorCode()} and closes. */
public final class Http2ConnectionException extends Http2Exception {
    private static final long serialVersionUID = 1L;


    public Http2ConnectionException(ErrorCode errorCode, String message) {
        super(errorCode, message);
    }
}
