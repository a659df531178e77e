package dev.weft.httpserver.http2;

import java.util.List;
import java.util.Objects;

/**
 * One decoded HTTP/2 frame (RFC 9113 §6). Byte arrays in frames are owned by the frame; callers must not
 * change them. {@code padLength} is -1 ({@link #NO_PADDING}) when the PADDED flag is absent, else the
 * number of padding octets.
 */
public sealed interface Frame {

    int NO_PADDING = -1;

    FrameType type();

    int streamId();

    private static byte[] orEmpty(byte[] b) {
        return b == null ? new byte[0] : b;
    }

    private static void checkStreamId(int id) {
        if (id < 0) {
            throw new IllegalArgumentException("stream id must be 31 bits: " + id);
        }
    }

    private static void checkPadding(int padLength) {
        if (padLength < NO_PADDING || padLength > 255) {
            throw new IllegalArgumentException("pad length must be -1..255: " + padLength);
        }
    }

    /** DATA (§6.1). */
    record DataFrame(int streamId, byte[] data, boolean endStream, int padLength) implements Frame {
        public DataFrame {
            checkStreamId(streamId);
            checkPadding(padLength);
            data = orEmpty(data);
        }

        public DataFrame(int streamId, byte[] data, boolean endStream) {
            this(streamId, data, endStream, NO_PADDING);
        }

        public FrameType type() {
            return FrameType.DATA;
        }

        /** The whole payload length, padding included: what counts against flow-control windows (§6.1). */
        public int flowControlledLength() {
            return data.length + (padLength == NO_PADDING ? 0 : padLength + 1);
        }
    }

    /** HEADERS (§6.2); {@code priority} is null unless the PRIORITY flag was set. */
    record HeadersFrame(int streamId, byte[] fragment, boolean endStream, boolean endHeaders,
                        StreamPriority priority, int padLength) implements Frame {
        public HeadersFrame {
            checkStreamId(streamId);
            checkPadding(padLength);
            fragment = orEmpty(fragment);
        }

        public HeadersFrame(int streamId, byte[] fragment, boolean endStream, boolean endHeaders) {
            this(streamId, fragment, endStream, endHeaders, null, NO_PADDING);
        }

        public FrameType type() {
            return FrameType.HEADERS;
        }
    }

    /** PRIORITY (§6.3). */
    record PriorityFrame(int streamId, StreamPriority priority) implements Frame {
        public PriorityFrame {
            checkStreamId(streamId);
            Objects.requireNonNull(priority, "priority");
        }

        public FrameType type() {
            return FrameType.PRIORITY;
        }
    }

    /** RST_STREAM (§6.4); {@code errorCode} is the raw wire value. */
    record RstStreamFrame(int streamId, int errorCode) implements Frame {
        public RstStreamFrame(int streamId, ErrorCode error) {
            this(streamId, error.code());
        }

        public RstStreamFrame {
            checkStreamId(streamId);
        }

        public FrameType type() {
            return FrameType.RST_STREAM;
        }

        public ErrorCode error() {
            return ErrorCode.of(errorCode);
        }
    }

    /** SETTINGS (§6.5); entries are kept in wire order, unknown identifiers included. */
    record SettingsFrame(boolean ack, List<Http2Settings.Setting> settings) implements Frame {
        public static final SettingsFrame ACK = new SettingsFrame(true, List.of());

        public SettingsFrame {
            settings = List.copyOf(settings);
            if (ack && !settings.isEmpty()) {
                throw new IllegalArgumentException("a SETTINGS ACK carries no settings");
            }
        }

        public FrameType type() {
            return FrameType.SETTINGS;
        }

        public int streamId() {
            return 0;
        }
    }

    /** PUSH_PROMISE (§6.6). */
    record PushPromiseFrame(int streamId, int promisedStreamId, byte[] fragment, boolean endHeaders,
                            int padLength) implements Frame {
        public PushPromiseFrame {
            checkStreamId(streamId);
            checkStreamId(promisedStreamId);
            checkPadding(padLength);
            fragment = orEmpty(fragment);
        }

        public FrameType type() {
            return FrameType.PUSH_PROMISE;
        }
    }

    /** PING (§6.7); the 8 opaque octets as a big-endian long. */
    record PingFrame(boolean ack, long opaqueData) implements Frame {
        public FrameType type() {
            return FrameType.PING;
        }

        public int streamId() {
            return 0;
        }
    }

    /** GOAWAY (§6.8); {@code errorCode} is the raw wire value. */
    record GoAwayFrame(int lastStreamId, int errorCode, byte[] debugData) implements Frame {
        public GoAwayFrame(int lastStreamId, ErrorCode error, byte[] debugData) {
            this(lastStreamId, error.code(), debugData);
        }

        public GoAwayFrame {
            checkStreamId(lastStreamId);
            debugData = orEmpty(debugData);
        }

        public FrameType type() {
            return FrameType.GOAWAY;
        }

        public int streamId() {
            return 0;
        }

        public ErrorCode error() {
            return ErrorCode.of(errorCode);
        }
    }

    /** WINDOW_UPDATE (§6.9); stream 0 addresses the connection window. */
    record WindowUpdateFrame(int streamId, int increment) implements Frame {
        public WindowUpdateFrame {
            checkStreamId(streamId);
            if (increment < 1) {
                throw new IllegalArgumentException("increment must be 1..2^31-1: " + increment);
            }
        }

        public FrameType type() {
            return FrameType.WINDOW_UPDATE;
        }
    }

    /** CONTINUATION (§6.10). */
    record ContinuationFrame(int streamId, byte[] fragment, boolean endHeaders) implements Frame {
        public ContinuationFrame {
            checkStreamId(streamId);
            fragment = orEmpty(fragment);
        }

        public FrameType type() {
            return FrameType.CONTINUATION;
        }
    }

    /** A frame of a type this codec does not know; receivers ignore it (§5.5). */
    record UnknownFrame(int typeCode, int flags, int streamId, byte[] payload) implements Frame {
        public UnknownFrame {
            checkStreamId(streamId);
            payload = orEmpty(payload);
        }

        public FrameType type() {
            return FrameType.UNKNOWN;
        }
    }
}
