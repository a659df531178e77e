package dev.weft.httpserver.http2;

import dev.weft.httpserver.http2.Frame.ContinuationFrame;
import dev.weft.httpserver.http2.Frame.DataFrame;
import dev.weft.httpserver.http2.Frame.GoAwayFrame;
import dev.weft.httpserver.http2.Frame.HeadersFrame;
import dev.weft.httpserver.http2.Frame.PingFrame;
import dev.weft.httpserver.http2.Frame.PriorityFrame;
import dev.weft.httpserver.http2.Frame.PushPromiseFrame;
import dev.weft.httpserver.http2.Frame.RstStreamFrame;
import dev.weft.httpserver.http2.Frame.SettingsFrame;
import dev.weft.httpserver.http2.Frame.UnknownFrame;
import dev.weft.httpserver.http2.Frame.WindowUpdateFrame;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.weft.httpserver.http2.ErrorCode.FRAME_SIZE_ERROR;
import static dev.weft.httpserver.http2.ErrorCode.PROTOCOL_ERROR;
import static dev.weft.httpserver.http2.FrameFlags.isSet;

/**
 * Reads HTTP/2 frames (RFC 9113 §4.1) from a stream, one at a time, into a reusable payload buffer, and
 * checks the frame-level rules of §4.2 and §6. Not thread-safe. Connection/stream state is not checked.
 */
public final class FrameReader {

    public static final int HEADER_LENGTH = 9;

    private final InputStream in;
    private final byte[] header = new byte[HEADER_LENGTH];
    private byte[] buffer = new byte[1024];
    private int maxFrameSize = Http2Settings.DEFAULT_MAX_FRAME_SIZE;

    public FrameReader(InputStream in) {
        this.in = in;
    }

    /** The largest payload accepted: our own advertised SETTINGS_MAX_FRAME_SIZE. */
    public void maxFrameSize(int size) {
        this.maxFrameSize = Http2Settings.requireValidMaxFrameSize(size);
    }

    public int maxFrameSize() {
        return maxFrameSize;
    }

    /**
     * Reads the next frame.
     *
     * @return the frame, or null at a clean end of stream (before any byte of a frame header)
     * @throws EOFException             if the stream ends inside a frame
     * @throws Http2ConnectionException for connection errors (send GOAWAY)
     * @throws Http2StreamException     for stream errors (send RST_STREAM); the frame was fully consumed
     */
    public Frame readFrame() throws IOException {
        int first = in.read();
        if (first < 0) {
            return null;
        }
        header[0] = (byte) first;
        readFully(header, 1, HEADER_LENGTH - 1);
        int length = ((header[0] & 0xFF) << 16) | ((header[1] & 0xFF) << 8) | (header[2] & 0xFF);
        int typeCode = header[3] & 0xFF;
        int flags = header[4] & 0xFF;
        int streamId = int31(header, 5); // the reserved bit is ignored on read
        if (length > maxFrameSize) {
            throw new Http2ConnectionException(FRAME_SIZE_ERROR,
                    "frame length " + length + " exceeds max frame size " + maxFrameSize);
        }
        if (buffer.length < length) {
            buffer = new byte[Math.max(length, Math.min(buffer.length * 2, maxFrameSize))];
        }
        readFully(buffer, 0, length);
        return decode(typeCode, flags, streamId, buffer, length);
    }

    /** Decodes one frame whose 9-octet header has already been split into its fields. */
    static Frame decode(int typeCode, int flags, int streamId, byte[] p, int len) throws Http2Exception {
        FrameType type = FrameType.of(typeCode);
        switch (type) {
            case DATA, HEADERS, PRIORITY, RST_STREAM, PUSH_PROMISE, CONTINUATION -> {
                if (streamId == 0) {
                    throw new Http2ConnectionException(PROTOCOL_ERROR, type + " frame on stream 0");
                }
            }
            case SETTINGS, PING, GOAWAY -> {
                if (streamId != 0) {
                    throw new Http2ConnectionException(PROTOCOL_ERROR, type + " frame on stream " + streamId);
                }
            }
            default -> {
                // WINDOW_UPDATE may use either; unknown frames are not checked
            }
        }
        return switch (type) {
            case DATA -> {
                int pad = padLength(flags, p, len, 0);
                int start = pad < 0 ? 0 : 1;
                yield new DataFrame(streamId, Arrays.copyOfRange(p, start, len - Math.max(pad, 0)),
                        isSet(flags, FrameFlags.END_STREAM), pad);
            }
            case HEADERS -> {
                boolean hasPriority = isSet(flags, FrameFlags.PRIORITY);
                int pad = padLength(flags, p, len, hasPriority ? 5 : 0);
                int pos = pad < 0 ? 0 : 1;
                StreamPriority priority = null;
                if (hasPriority) {
                    priority = priority(p, pos);
                    pos += 5;
                    // A self-dependency is a stream error the connection reports after decoding the
                    // header block, so that the HPACK context stays in sync.
                }
                yield new HeadersFrame(streamId, Arrays.copyOfRange(p, pos, len - Math.max(pad, 0)),
                        isSet(flags, FrameFlags.END_STREAM), isSet(flags, FrameFlags.END_HEADERS), priority, pad);
            }
            case PRIORITY -> {
                if (len != 5) {
                    throw new Http2StreamException(streamId, FRAME_SIZE_ERROR, "PRIORITY length " + len);
                }
                StreamPriority priority = priority(p, 0);
                checkSelfDependency(streamId, priority);
                yield new PriorityFrame(streamId, priority);
            }
            case RST_STREAM -> {
                requireLength(type, len, 4);
                yield new RstStreamFrame(streamId, int32(p, 0));
            }
            case SETTINGS -> settings(flags, p, len);
            case PUSH_PROMISE -> {
                int pad = padLength(flags, p, len, 4);
                int pos = pad < 0 ? 0 : 1;
                if (len - pos < 4) {
                    throw new Http2ConnectionException(FRAME_SIZE_ERROR, "PUSH_PROMISE too short: " + len);
                }
                yield new PushPromiseFrame(streamId, int31(p, pos),
                        Arrays.copyOfRange(p, pos + 4, len - Math.max(pad, 0)),
                        isSet(flags, FrameFlags.END_HEADERS), pad);
            }
            case PING -> {
                requireLength(type, len, 8);
                yield new PingFrame(isSet(flags, FrameFlags.ACK), ((long) int32(p, 0) << 32) | (int32(p, 4) & 0xFFFF_FFFFL));
            }
            case GOAWAY -> {
                if (len < 8) {
                    throw new Http2ConnectionException(FRAME_SIZE_ERROR, "GOAWAY too short: " + len);
                }
                yield new GoAwayFrame(int31(p, 0), int32(p, 4), Arrays.copyOfRange(p, 8, len));
            }
            case WINDOW_UPDATE -> {
                requireLength(type, len, 4);
                int increment = int31(p, 0);
                if (increment == 0) {
                    String msg = "WINDOW_UPDATE with increment 0";
                    throw streamId == 0 ? new Http2ConnectionException(PROTOCOL_ERROR, msg)
                            : new Http2StreamException(streamId, PROTOCOL_ERROR, msg);
                }
                yield new WindowUpdateFrame(streamId, increment);
            }
            case CONTINUATION -> new ContinuationFrame(streamId, Arrays.copyOf(p, len),
                    isSet(flags, FrameFlags.END_HEADERS));
            case UNKNOWN -> new UnknownFrame(typeCode, flags, streamId, Arrays.copyOf(p, len));
        };
    }

    private static SettingsFrame settings(int flags, byte[] p, int len) throws Http2ConnectionException {
        if (isSet(flags, FrameFlags.ACK)) {
            if (len != 0) {
                throw new Http2ConnectionException(FRAME_SIZE_ERROR, "SETTINGS ACK with payload " + len);
            }
            return SettingsFrame.ACK;
        }
        if (len % 6 != 0) {
            throw new Http2ConnectionException(FRAME_SIZE_ERROR, "SETTINGS length not a multiple of 6: " + len);
        }
        List<Http2Settings.Setting> entries = new ArrayList<>(len / 6);
        for (int pos = 0; pos < len; pos += 6) {
            int id = ((p[pos] & 0xFF) << 8) | (p[pos + 1] & 0xFF);
            long value = int32(p, pos + 2) & 0xFFFF_FFFFL;
            Http2Settings.validate(id, value);
            entries.add(new Http2Settings.Setting(id, value));
        }
        return new SettingsFrame(false, entries);
    }

    /**
     * The pad length when PADDED is set (else -1), checked against the payload that remains after the
     * pad-length octet and {@code fixed} mandatory octets.
     */
    private static int padLength(int flags, byte[] p, int len, int fixed) throws Http2ConnectionException {
        if (!isSet(flags, FrameFlags.PADDED)) {
            if (len < fixed) {
                throw new Http2ConnectionException(FRAME_SIZE_ERROR, "frame too short: " + len);
            }
            return Frame.NO_PADDING;
        }
        if (len < 1 + fixed) {
            throw new Http2ConnectionException(FRAME_SIZE_ERROR, "padded frame too short: " + len);
        }
        int pad = p[0] & 0xFF;
        if (pad > len - 1 - fixed) {
            throw new Http2ConnectionException(PROTOCOL_ERROR,
                    "pad length " + pad + " too large for payload of " + len);
        }
        return pad;
    }

    private static StreamPriority priority(byte[] p, int pos) {
        return new StreamPriority((p[pos] & 0x80) != 0, int31(p, pos), (p[pos + 4] & 0xFF) + 1);
    }

    private static void checkSelfDependency(int streamId, StreamPriority priority) throws Http2StreamException {
        if (priority.dependency() == streamId) {
            throw new Http2StreamException(streamId, PROTOCOL_ERROR, "stream " + streamId + " depends on itself");
        }
    }

    private static void requireLength(FrameType type, int len, int expected) throws Http2ConnectionException {
        if (len != expected) {
            throw new Http2ConnectionException(FRAME_SIZE_ERROR,
                    type + " length must be " + expected + ", was " + len);
        }
    }

    private static int int32(byte[] b, int pos) {
        return ((b[pos] & 0xFF) << 24) | ((b[pos + 1] & 0xFF) << 16) | ((b[pos + 2] & 0xFF) << 8) | (b[pos + 3] & 0xFF);
    }

    private static int int31(byte[] b, int pos) {
        return int32(b, pos) & 0x7FFF_FFFF;
    }

    private void readFully(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            int n = in.read(b, off, len);
            if (n < 0) {
                throw new EOFException("stream ended inside an HTTP/2 frame");
            }
            off += n;
            len -= n;
        }
    }
}
