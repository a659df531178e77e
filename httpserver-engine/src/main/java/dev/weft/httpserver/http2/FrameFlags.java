package dev.weft.httpserver.http2;

/** Flag bits of the frame header (RFC 9113 §6). Flags not defined for a frame type are ignored on read. */
public final class FrameFlags {
    /** DATA, HEADERS. */
    public static final int END_STREAM = 0x1;
    /** SETTINGS, PING. */
    public static final int ACK = 0x1;
    /** HEADERS, PUSH_PROMISE, CONTINUATION. */
    public static final int END_HEADERS = 0x4;
    /** DATA, HEADERS, PUSH_PROMISE. */
    public static final int PADDED = 0x8;
    /** HEADERS. */
    public static final int PRIORITY = 0x20;

    private FrameFlags() {
    }

    public static boolean isSet(int flags, int flag) {
        return (flags & flag) != 0;
    }
}
