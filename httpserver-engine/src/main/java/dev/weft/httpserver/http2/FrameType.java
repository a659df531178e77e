package dev.weft.httpserver.http2;

/** Frame types defined by RFC 9113 §6; any other type code is {@link #UNKNOWN} and must be ignored. */
public enum FrameType {
    DATA(0x0),
    HEADERS(0x1),
    PRIORITY(0x2),
    RST_STREAM(0x3),
    SETTINGS(0x4),
    PUSH_PROMISE(0x5),
    PING(0x6),
    GOAWAY(0x7),
    WINDOW_UPDATE(0x8),
    CONTINUATION(0x9),
    /** Any type code not listed above (extensions); receivers discard such frames (§4.1, §5.5). */
    UNKNOWN(-1);

    private static final FrameType[] BY_CODE = {
        DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION
    };

    private final int code;

    FrameType(int code) {
        this.code = code;
    }

    /** The 8-bit type code, or -1 for {@link #UNKNOWN}. */
    public int code() {
        return code;
    }

    public static FrameType of(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : UNKNOWN;
    }
}
