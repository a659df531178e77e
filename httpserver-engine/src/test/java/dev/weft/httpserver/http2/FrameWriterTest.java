package dev.weft.httpserver.http2;

import dev.weft.httpserver.http2.Frame.ContinuationFrame;
import dev.weft.httpserver.http2.Frame.DataFrame;
import dev.weft.httpserver.http2.Frame.HeadersFrame;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrameWriterTest {

    static byte[] block(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31);
        }
        return b;
    }

    /** Writes a header block with {@link FrameWriter#writeHeaderBlock} and reads the frames back. */
    private static List<Frame> headerFrames(FrameWriter writer, int streamId, byte[] block, boolean endStream)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writer.writeHeaderBlock(out, streamId, block, block.length, endStream);
        return readAll(out.toByteArray());
    }

    private static List<Frame> readAll(byte[] bytes) throws IOException {
        FrameReader reader = new FrameReader(new ByteArrayInputStream(bytes));
        reader.maxFrameSize(Http2Settings.MAX_MAX_FRAME_SIZE);
        List<Frame> frames = new java.util.ArrayList<>();
        for (Frame f; (f = reader.readFrame()) != null; ) {
            frames.add(f);
        }
        return frames;
    }

    @Test
    void smallHeaderBlockIsOneHeadersFrameWithEndHeaders() throws IOException {
        List<Frame> frames = headerFrames(new FrameWriter(), 1, block(100), true);
        assertEquals(1, frames.size());
        HeadersFrame h = (HeadersFrame) frames.get(0);
        assertTrue(h.endHeaders());
        assertTrue(h.endStream());
        assertArrayEquals(block(100), h.fragment());
    }

    @Test
    void largeHeaderBlockIsSplitIntoHeadersAndContinuationsAtMaxFrameSize() throws IOException {
        byte[] block = block(16_384 * 2 + 10);
        List<Frame> frames = headerFrames(new FrameWriter(), 3, block, true);
        assertEquals(3, frames.size());
        HeadersFrame h = (HeadersFrame) frames.get(0);
        assertEquals(16_384, h.fragment().length);
        assertTrue(h.endStream(), "END_STREAM stays on the HEADERS frame");
        assertFalse(h.endHeaders());
        ContinuationFrame c1 = assertInstanceOf(ContinuationFrame.class, frames.get(1));
        ContinuationFrame c2 = assertInstanceOf(ContinuationFrame.class, frames.get(2));
        assertEquals(16_384, c1.fragment().length);
        assertFalse(c1.endHeaders());
        assertEquals(10, c2.fragment().length);
        assertTrue(c2.endHeaders());
        assertEquals(3, c2.streamId());

        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        joined.write(h.fragment());
        joined.write(c1.fragment());
        joined.write(c2.fragment());
        assertArrayEquals(block, joined.toByteArray());
    }

    @Test
    void headerBlockOfExactlyMaxFrameSizeNeedsNoContinuation() throws IOException {
        assertEquals(1, headerFrames(new FrameWriter(), 1, block(16_384), false).size());
    }

    @Test
    void onlyTheGivenLengthOfTheBlockIsWritten() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new FrameWriter().writeHeaderBlock(out, 1, block(100), 40, false);
        HeadersFrame h = (HeadersFrame) readAll(out.toByteArray()).get(0);
        assertArrayEquals(java.util.Arrays.copyOf(block(100), 40), h.fragment());
    }

    @Test
    void splittingFollowsTheConfiguredPeerMaxFrameSize() throws IOException {
        FrameWriter writer = new FrameWriter();
        writer.maxFrameSize(20_000);
        List<Frame> frames = headerFrames(writer, 1, block(30_000), false);
        assertEquals(2, frames.size());
        assertEquals(20_000, ((HeadersFrame) frames.get(0)).fragment().length);
        assertThrows(IllegalArgumentException.class, () -> writer.maxFrameSize(16_383));
    }

    @Test
    void dataFrameHonoursOffsetAndLength() throws IOException {
        DataFrame d = (DataFrame) readAll(FrameWriter.dataFrame(1, block(100), 10, 20, false)).get(0);
        assertEquals(1, d.streamId());
        assertArrayEquals(java.util.Arrays.copyOfRange(block(100), 10, 30), d.data());
        assertFalse(d.endStream());
    }

    @Test
    void emptyDataWithEndStreamIsOneEmptyFrame() throws IOException {
        List<Frame> frames = readAll(FrameWriter.dataFrame(1, new byte[0], 0, 0, true));
        assertEquals(1, frames.size());
        DataFrame d = (DataFrame) frames.get(0);
        assertEquals(0, d.data().length);
        assertTrue(d.endStream());
    }

    @Test
    void encodedFrameHeaderHasLengthTypeFlagsAndStream() {
        byte[] wire = new FrameWriter().encode(new DataFrame(0x01020304, block(3), true, 2));
        assertArrayEquals(new byte[] {0, 0, 6, 0, FrameFlags.END_STREAM | FrameFlags.PADDED, 1, 2, 3, 4, 2},
                java.util.Arrays.copyOf(wire, 10));
        assertArrayEquals(new byte[] {0, 0}, java.util.Arrays.copyOfRange(wire, 13, 15), "padding is zeros");
    }

    @Test
    void payloadOverMaxFrameSizeIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> new FrameWriter().encode(new DataFrame(1, block(16_385), false)));
    }

    @Test
    void prefaceMatchesOnlyTheExactClientPreface() throws IOException {
        byte[] p = Preface.bytes();
        assertEquals(24, p.length);
        assertTrue(Preface.matches(p, 0, 24));
        assertTrue(Preface.isPrefix(p, 0, 5));
        assertFalse(Preface.matches(p, 0, 23));
        Preface.readAndVerify(new ByteArrayInputStream(p));
        p[23] = 'x';
        var e = assertThrows(Http2ConnectionException.class, () -> Preface.readAndVerify(new ByteArrayInputStream(p)));
        assertEquals(ErrorCode.PROTOCOL_ERROR, e.errorCode());
        assertThrows(java.io.EOFException.class,
                () -> Preface.readAndVerify(new ByteArrayInputStream("PRI * HTTP/2.0".getBytes())));
    }
}
