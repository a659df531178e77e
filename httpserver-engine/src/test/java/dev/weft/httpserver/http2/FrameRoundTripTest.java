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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class FrameRoundTripTest {

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static List<Frame> everyFrameType() {
        return List.of(
                new DataFrame(1, bytes("hello"), false),
                new DataFrame(3, bytes("padded body"), true, 7),
                new DataFrame(5, new byte[0], true),
                new HeadersFrame(1, bytes("\u0082\u0086\u0084"), true, true),
                new HeadersFrame(3, bytes("block"), false, false, new StreamPriority(true, 1, 256), 3),
                new HeadersFrame(5, bytes("block"), false, true, new StreamPriority(false, 0, 16), Frame.NO_PADDING),
                new PriorityFrame(7, new StreamPriority(true, 3, 1)),
                new RstStreamFrame(9, ErrorCode.CANCEL),
                new RstStreamFrame(9, 0xABCD),
                new SettingsFrame(false, List.of(new Http2Settings.Setting(Http2Settings.MAX_FRAME_SIZE, 32768),
                        new Http2Settings.Setting(Http2Settings.INITIAL_WINDOW_SIZE, Integer.MAX_VALUE),
                        new Http2Settings.Setting(Http2Settings.HEADER_TABLE_SIZE, 0xFFFF_FFFFL),
                        new Http2Settings.Setting(0x4242, 99))),
                SettingsFrame.ACK,
                new PushPromiseFrame(1, 2, bytes("promised"), true, Frame.NO_PADDING),
                new PushPromiseFrame(3, 4, bytes("promised"), false, 10),
                new PingFrame(false, 0x0102030405060708L),
                new PingFrame(true, -1L),
                new GoAwayFrame(Integer.MAX_VALUE, ErrorCode.ENHANCE_YOUR_CALM, bytes("calm down")),
                new GoAwayFrame(0, ErrorCode.NO_ERROR, new byte[0]),
                new WindowUpdateFrame(0, Integer.MAX_VALUE),
                new WindowUpdateFrame(11, 1),
                new ContinuationFrame(1, bytes("more"), true),
                new ContinuationFrame(1, new byte[0], false),
                new UnknownFrame(0xFA, 0xFF, 13, bytes("extension")));
    }

    @ParameterizedTest
    @MethodSource("everyFrameType")
    void frameReadsBackEqualToWhatWasWritten(Frame frame) throws IOException {
        byte[] wire = new FrameWriter().encode(frame);
        FrameReader reader = new FrameReader(new ByteArrayInputStream(wire));
        assertSameFrame(frame, reader.readFrame());
        assertNull(reader.readFrame());
    }

    @ParameterizedTest
    @MethodSource("everyFrameType")
    void frameReadsBackWhenFedOneByteAtATime(Frame frame) throws IOException {
        byte[] wire = new FrameWriter().encode(frame);
        FrameReader reader = new FrameReader(oneByteAtATime(wire));
        assertSameFrame(frame, reader.readFrame());
        assertNull(reader.readFrame());
    }

    @Test
    void allFrameTypesInOneStreamReadBackInOrderOneByteAtATime() throws IOException {
        FrameWriter writer = new FrameWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writer.write(out, everyFrameType());
        FrameReader reader = new FrameReader(oneByteAtATime(out.toByteArray()));
        List<Frame> read = new ArrayList<>();
        for (Frame f; (f = reader.readFrame()) != null; ) {
            read.add(f);
        }
        assertEquals(everyFrameType().size(), read.size());
        for (int i = 0; i < read.size(); i++) {
            assertSameFrame(everyFrameType().get(i), read.get(i));
        }
    }

    @Test
    void largeFrameReadsBackAfterRaisingBothLimits() throws IOException {
        byte[] payload = new byte[100_000];
        Arrays.fill(payload, (byte) 'x');
        FrameWriter writer = new FrameWriter();
        writer.maxFrameSize(1 << 20);
        byte[] wire = writer.encode(new DataFrame(1, payload, true));
        FrameReader reader = new FrameReader(new ByteArrayInputStream(wire));
        reader.maxFrameSize(1 << 20);
        assertSameFrame(new DataFrame(1, payload, true), reader.readFrame());
    }

    /** Records holding byte[] compare arrays by identity, so compare via their string form of contents. */
    static void assertSameFrame(Frame expected, Frame actual) {
        assertEquals(describe(expected), describe(actual));
    }

    static String describe(Frame f) {
        return switch (f) {
            case DataFrame d -> "DATA " + d.streamId() + " " + Arrays.toString(d.data()) + " " + d.endStream()
                    + " pad=" + d.padLength();
            case HeadersFrame h -> "HEADERS " + h.streamId() + " " + Arrays.toString(h.fragment()) + " "
                    + h.endStream() + " " + h.endHeaders() + " " + h.priority() + " pad=" + h.padLength();
            case PushPromiseFrame p -> "PUSH_PROMISE " + p.streamId() + " " + p.promisedStreamId() + " "
                    + Arrays.toString(p.fragment()) + " " + p.endHeaders() + " pad=" + p.padLength();
            case GoAwayFrame g -> "GOAWAY " + g.lastStreamId() + " " + g.errorCode() + " "
                    + Arrays.toString(g.debugData());
            case ContinuationFrame c -> "CONTINUATION " + c.streamId() + " " + Arrays.toString(c.fragment()) + " "
                    + c.endHeaders();
            case UnknownFrame u -> "UNKNOWN " + u.typeCode() + " " + u.flags() + " " + u.streamId() + " "
                    + Arrays.toString(u.payload());
            default -> f.toString();
        };
    }

    static InputStream oneByteAtATime(byte[] wire) {
        return new FilterInputStream(new ByteArrayInputStream(wire)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, 1));
            }
        };
    }
}
