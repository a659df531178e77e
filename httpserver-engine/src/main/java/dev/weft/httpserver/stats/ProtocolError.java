package dev.weft.httpserver.stats;

/**
 * What a client did that made the server reject, cut or break off a request, stream or connection, under a
 * stable name for metrics ({@link #key()}). Each is counted and logged at {@code DEBUG}, never as a warning.
 */
public enum ProtocolError {
    /** Malformed request line (method, target or spacing): {@code 400}. */
    BAD_REQUEST_LINE,
    /** Request target in a form the method does not allow, or not a valid URI: {@code 400}. */
    BAD_REQUEST_TARGET,
    /** Malformed or unsupported HTTP version: {@code 400} or {@code 505}. */
    BAD_VERSION,
    /** Request line longer than the limit: {@code 414}. */
    REQUEST_LINE_TOO_LONG,
    /** Header section larger than the limit or with too many fields: {@code 431}. */
    HEADERS_TOO_LARGE,
    /** Malformed header field (name, value, folding, bare CR or LF): {@code 400}. */
    BAD_HEADER,
    /** Missing, duplicate or malformed {@code Host}: {@code 400}. */
    BAD_HOST,
    /** Malformed, duplicate or conflicting {@code Content-Length}: {@code 400}. */
    BAD_CONTENT_LENGTH,
    /** {@code Transfer-Encoding} other than a final {@code chunked}: {@code 400} or {@code 501}. */
    BAD_TRANSFER_ENCODING,
    /** Malformed chunked body (size, extensions, terminators, trailers). */
    BAD_CHUNK,
    /** Request body larger than the limit: {@code 413}. */
    BODY_TOO_LARGE,
    /** An {@code Expect} value other than {@code 100-continue}: {@code 417}. */
    EXPECTATION_FAILED,
    /** Header section not received in time: {@code 408}. */
    HEADER_TIMEOUT,
    /** Request body stalled longer than the body-read timeout. */
    BODY_TIMEOUT,
    /** A client did not take our response bytes in time. */
    WRITE_TIMEOUT,
    /** TLS handshake failed or timed out. */
    TLS_HANDSHAKE,
    /** Connection closed or reset by the client in the middle of a request. */
    UNEXPECTED_EOF,
    /** HTTP/2 connection error: GOAWAY with an error code other than ENHANCE_YOUR_CALM. */
    HTTP2_CONNECTION_ERROR,
    /** HTTP/2 stream error: RST_STREAM for a malformed or misbehaving stream. */
    HTTP2_STREAM_ERROR,
    /** HTTP/2 abuse (rapid reset, control-frame or CONTINUATION flood): GOAWAY ENHANCE_YOUR_CALM. */
    HTTP2_FLOOD,
    /** The client closed or reset the connection before it had taken the whole response. */
    RESPONSE_ABORTED,
    /** An unread request body the server discarded after the response took longer than {@code drainTimeout}. */
    DRAIN_TIMEOUT,
    /**
     * A request body arrived slower than {@code minRequestDataRate} while the handler waited for it, after the
     * grace period: {@code 408} if nothing was sent yet, and a close (HTTP/2: {@code RST_STREAM CANCEL}).
     */
    REQUEST_DATA_RATE,
    /**
     * A client took a response slower than {@code minResponseDataRate} while writes waited for it, after the
     * grace period: the connection is closed (HTTP/2: {@code RST_STREAM CANCEL}).
     */
    RESPONSE_DATA_RATE,
    /**
     * A trusted proxy's {@code Forwarded} or {@code X-Forwarded-*} field that is malformed or beyond the limits
     * (20 hops, 1024 characters): ignored, the socket's peer stays the client.
     */
    BAD_FORWARDED,
    /** A connection that did not start with a valid PROXY protocol header in time, where one is required: closed. */
    BAD_PROXY_HEADER;

    /** Stable lower-case name, e.g. {@code bad_content_length}. */
    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
