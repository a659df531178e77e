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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Serialises frames (RFC 9113 §4.1, §6) and splits header blocks and DATA payloads at the peer's
 * SETTINGS_MAX_FRAME_SIZE. Not thread-safe as to {@link #maxFrameSize(int)}; encoding itself is stateless.
 */
public final class FrameWriter {

    private int maxFrameSize = Http2Settings.DEFAULT_MAX_FRAME_SIZE;

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

    /** Writes several frames in order, e.g. the result of {@link #headerFrames} or {@link #dataFrames}. */
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
     * Splits an encoded header block into one HEADERS frame followed by as many CONTINUATION frames as the
     * peer's max frame size needs; only the last carries END_HEADERS. {@code priority} may be null.
     */
    public List<Frame> headerFrames(int streamId, byte[] block, boolean endStream, StreamPriority priority) {
        List<Frame> frames = new ArrayList<>();
        int first = Math.min(block.length, maxFrameSize - (priority == null ? 0 : 5));
        frames.add(new HeadersFrame(streamId, Arrays.copyOfRange(block, 0, first), endStream,
                first == block.length, priority, Frame.NO_PADDING));
        for (int pos = first; pos < block.length; ) {
            int end = Math.min(block.length, pos + maxFrameSize);
            frames.add(new ContinuationFrame(streamId, Arrays.copyOfRange(block, pos, end), end == block.length));
            pos = end;
        }
        return frames;
    }

    /**
     * Splits a body chunk into DATA frames of at most the peer's max frame size; only the last carries
     * END_STREAM. An empty chunk yields one empty frame. Flow control is the caller's business.
     */
    public List<DataFrame> dataFrames(int streamId, byte[] data, int off, int len, boolean endStream) {
        List<DataFrame> frames = new ArrayList<>();
        int pos = off;
        int end = off + len;
        do {
            int stop = Math.min(end, pos + maxFrameSize);
            frames.add(new DataFrame(streamId, Arrays.copyOfRange(data, pos, stop), endStream && stop == end));
            pos = stop;
        } while (pos < end);
        return frames;
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
        out[0] = (byte) (payload.length >>> 16);
        out[1] = (byte) (payload.length >>> 8);
        out[2] = (byte) payload.length;
        out[3] = (byte) type;
        out[4] = (byte) flags;
        System.arraycopy(int32(streamId & 0x7FFF_FFFF), 0, out, 5, 4); // reserved bit sent as 0
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
