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

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Serialises frames (RFC 9113 §4.1, §6) and writes header blocks split at the peer's SETTINGS_MAX_FRAME_SIZE.
 * Not thread-safe as to {@link #maxFrameSize(int)} and {@link #writeHeaderBlock}; {@link #encode} is stateless.
 */
public final class FrameWriter {

    private int maxFrameSize = Http2Settings.DEFAULT_MAX_FRAME_SIZE;
    /** Scratch for {@link #writeHeaderBlock}'s frame headers. */
    private final byte[] head = new byte[FrameReader.HEADER_LENGTH];

    /** The largest payload the peer accepts (its SETTINGS_MAX_FRAME_SIZE). */
    public void maxFrameSize(int size) {
        this.maxFrameSize = Http2Settings.requireValidMaxFrameSize(size);
    }

    public int maxFrameSize() {
        return maxFrameSize;
    }

    /** Writes one frame. */
    public void write(OutputStream out, Frame frame) throws IOException {
        out.write(encode(frame));
    }

    /** Writes several frames in order. */
    public void write(OutputStream out, List<? extends Frame> frames) throws IOException {
        for (Frame f : frames) {
            write(out, f);
        }
    }

    /**
     * Encodes one frame, header included.
     *
     * @throws IllegalArgumentException if the payload exceeds {@link #maxFrameSize()}
     */
    public byte[] encode(Frame frame) {
        return switch (frame) {
            case DataFrame f -> padded(FrameType.DATA.code(), flag(f.endStream(), FrameFlags.END_STREAM),
                    f.streamId(), new byte[0], f.data(), f.padLength());
            case HeadersFrame f -> {
                int flags = flag(f.endStream(), FrameFlags.END_STREAM) | flag(f.endHeaders(), FrameFlags.END_HEADERS);
                byte[] prefix = new byte[0];
                if (f.priority() != null) {
                    flags |= FrameFlags.PRIORITY;
                    prefix = priority(f.priority());
                }
                yield padded(FrameType.HEADERS.code(), flags, f.streamId(), prefix, f.fragment(), f.padLength());
            }
            case PriorityFrame f -> frame(FrameType.PRIORITY.code(), 0, f.streamId(), priority(f.priority()));
            case RstStreamFrame f -> frame(FrameType.RST_STREAM.code(), 0, f.streamId(), int32(f.errorCode()));
            case SettingsFrame f -> {
                byte[] p = new byte[f.settings().size() * 6];
                int pos = 0;
                for (Http2Settings.Setting s : f.settings()) {
                    p[pos] = (byte) (s.id() >>> 8);
                    p[pos + 1] = (byte) s.id();
                    System.arraycopy(int32((int) s.value()), 0, p, pos + 2, 4);
                    pos += 6;
                }
                yield frame(FrameType.SETTINGS.code(), flag(f.ack(), FrameFlags.ACK), 0, p);
            }
            case PushPromiseFrame f -> padded(FrameType.PUSH_PROMISE.code(), flag(f.endHeaders(), FrameFlags.END_HEADERS),
                    f.streamId(), int32(f.promisedStreamId()), f.fragment(), f.padLength());
            case PingFrame f -> {
                byte[] p = new byte[8];
                System.arraycopy(int32((int) (f.opaqueData() >>> 32)), 0, p, 0, 4);
                System.arraycopy(int32((int) f.opaqueData()), 0, p, 4, 4);
                yield frame(FrameType.PING.code(), flag(f.ack(), FrameFlags.ACK), 0, p);
            }
            case GoAwayFrame f -> {
                byte[] p = new byte[8 + f.debugData().length];
                System.arraycopy(int32(f.lastStreamId()), 0, p, 0, 4);
                System.arraycopy(int32(f.errorCode()), 0, p, 4, 4);
                System.arraycopy(f.debugData(), 0, p, 8, f.debugData().length);
                yield frame(FrameType.GOAWAY.code(), 0, 0, p);
            }
            case WindowUpdateFrame f -> frame(FrameType.WINDOW_UPDATE.code(), 0, f.streamId(), int32(f.increment()));
            case ContinuationFrame f -> frame(FrameType.CONTINUATION.code(), flag(f.endHeaders(), FrameFlags.END_HEADERS),
                    f.streamId(), f.fragment());
            case UnknownFrame f -> frame(f.typeCode(), f.flags(), f.streamId(), f.payload());
        };
    }

    /**
     * Writes an encoded header block straight to {@code out} as one HEADERS frame followed by as many
     * CONTINUATION frames as the peer's max frame size needs; only the last carries END_HEADERS, END_STREAM
     * stays on the HEADERS frame. Nothing is copied. One thread at a time (the connection's writer).
     */
    public void writeHeaderBlock(OutputStream out, int streamId, byte[] block, int length, boolean endStream)
            throws IOException {
        int first = Math.min(length, maxFrameSize);
        int flags = (endStream ? FrameFlags.END_STREAM : 0) | (first == length ? FrameFlags.END_HEADERS : 0);
        putHeader(head, 0, first, FrameType.HEADERS.code(), flags, streamId);
        out.write(head, 0, FrameReader.HEADER_LENGTH);
        out.write(block, 0, first);
        for (int pos = first; pos < length; ) {
            int n = Math.min(maxFrameSize, length - pos);
            putHeader(head, 0, n, FrameType.CONTINUATION.code(), pos + n == length ? FrameFlags.END_HEADERS : 0,
                    streamId);
            out.write(head, 0, FrameReader.HEADER_LENGTH);
            out.write(block, pos, n);
            pos += n;
        }
    }

    /**
     * One DATA frame, header and payload in one new array; flow control and the peer's max frame size are
     * the caller's business.
     */
    public static byte[] dataFrame(int streamId, byte[] data, int off, int len, boolean endStream) {
        byte[] f = new byte[FrameReader.HEADER_LENGTH + len];
        putHeader(f, 0, len, FrameType.DATA.code(), endStream ? FrameFlags.END_STREAM : 0, streamId);
        System.arraycopy(data, off, f, FrameReader.HEADER_LENGTH, len);
        return f;
    }

    /** Puts a 9-octet frame header (§4.1) at {@code off}; the reserved bit of the stream id is sent as 0. */
    static void putHeader(byte[] dst, int off, int length, int type, int flags, int streamId) {
        dst[off] = (byte) (length >>> 16);
        dst[off + 1] = (byte) (length >>> 8);
        dst[off + 2] = (byte) length;
        dst[off + 3] = (byte) type;
        dst[off + 4] = (byte) flags;
        int id = streamId & 0x7FFF_FFFF;
        dst[off + 5] = (byte) (id >>> 24);
        dst[off + 6] = (byte) (id >>> 16);
        dst[off + 7] = (byte) (id >>> 8);
        dst[off + 8] = (byte) id;
    }

    private byte[] padded(int type, int flags, int streamId, byte[] prefix, byte[] body, int padLength) {
        if (padLength == Frame.NO_PADDING) {
            byte[] p = new byte[prefix.length + body.length];
            System.arraycopy(prefix, 0, p, 0, prefix.length);
            System.arraycopy(body, 0, p, prefix.length, body.length);
            return frame(type, flags, streamId, p);
        }
        byte[] p = new byte[1 + prefix.length + body.length + padLength]; // padding octets stay zero
        p[0] = (byte) padLength;
        System.arraycopy(prefix, 0, p, 1, prefix.length);
        System.arraycopy(body, 0, p, 1 + prefix.length, body.length);
        return frame(type, flags | FrameFlags.PADDED, streamId, p);
    }

    private byte[] frame(int type, int flags, int streamId, byte[] payload) {
        if (payload.length > maxFrameSize) {
            throw new IllegalArgumentException("payload of " + payload.length + " exceeds max frame size " + maxFrameSize);
        }
        byte[] out = new byte[FrameReader.HEADER_LENGTH + payload.length];
        putHeader(out, 0, payload.length, type, flags, streamId);
        System.arraycopy(payload, 0, out, FrameReader.HEADER_LENGTH, payload.length);
        return out;
    }

    private static byte[] priority(StreamPriority p) {
        byte[] b = new byte[5];
        System.arraycopy(int32(p.dependency() | (p.exclusive() ? 0x8000_0000 : 0)), 0, b, 0, 4);
        b[4] = (byte) (p.weight() - 1);
        return b;
    }

    private static int flag(boolean set, int flag) {
        return set ? flag : 0;
    }

    private static byte[] int32(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }
}
