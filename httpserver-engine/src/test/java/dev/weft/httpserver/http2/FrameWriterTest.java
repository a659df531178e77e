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

    @Test
    void smallHeaderBlockIsOneHeadersFrameWithEndHeaders() {
        List<Frame> frames = new FrameWriter().headerFrames(1, block(100), true, null);
        assertEquals(1, frames.size());
        HeadersFrame h = (HeadersFrame) frames.get(0);
        assertTrue(h.endHeaders());
        assertTrue(h.endStream());
        assertArrayEquals(block(100), h.fragment());
    }

    @Test
    void largeHeaderBlockIsSplitIntoHeadersAndContinuationsAtMaxFrameSize() throws IOException {
        byte[] block = block(16_384 * 2 + 10);
        FrameWriter writer = new FrameWriter();
        List<Frame> frames = writer.headerFrames(3, block, true, null);
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

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writer.write(out, frames);
        FrameReader reader = new FrameReader(new ByteArrayInputStream(out.toByteArray()));
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        joined.write(((HeadersFrame) reader.readFrame()).fragment());
        joined.write(((ContinuationFrame) reader.readFrame()).fragment());
        joined.write(((ContinuationFrame) reader.readFrame()).fragment());
        assertNull(reader.readFrame());
        assertArrayEquals(block, joined.toByteArray());
    }

    @Test
    void headerBlockOfExactlyMaxFrameSizeNeedsNoContinuation() {
        assertEquals(1, new FrameWriter().headerFrames(1, block(16_384), false, null).size());
    }

    @Test
    void priorityFieldsCountAgainstTheFirstFrame() {
        StreamPriority p = new StreamPriority(false, 0, 16);
        List<Frame> frames = new FrameWriter().headerFrames(1, block(16_384), false, p);
        assertEquals(2, frames.size());
        assertEquals(16_379, ((HeadersFrame) frames.get(0)).fragment().length);
        assertEquals(p, ((HeadersFrame) frames.get(0)).priority());
        assertEquals(5, ((ContinuationFrame) frames.get(1)).fragment().length);
        assertEquals(16_384 + 9, new FrameWriter().encode(frames.get(0)).length);
    }

    @Test
    void splittingFollowsTheConfiguredPeerMaxFrameSize() {
        FrameWriter writer = new FrameWriter();
        writer.maxFrameSize(20_000);
        assertEquals(2, writer.headerFrames(1, block(30_000), false, null).size());
        assertEquals(2, writer.dataFrames(1, block(30_000), 0, 30_000, false).size());
        assertThrows(IllegalArgumentException.class, () -> writer.maxFrameSize(16_383));
    }

    @Test
    void dataIsSplitAtMaxFrameSizeWithEndStreamOnlyOnTheLast() {
        byte[] body = block(40_000);
        List<DataFrame> frames = new FrameWriter().dataFrames(9, body, 0, body.length, true);
        assertEquals(3, frames.size());
        assertEquals(16_384, frames.get(0).data().length);
        assertEquals(16_384, frames.get(1).data().length);
        assertEquals(40_000 - 2 * 16_384, frames.get(2).data().length);
        assertFalse(frames.get(0).endStream());
        assertFalse(frames.get(1).endStream());
        assertTrue(frames.get(2).endStream());
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        frames.forEach(f -> joined.writeBytes(f.data()));
        assertArrayEquals(body, joined.toByteArray());
    }

    @Test
    void dataSplittingHonoursOffsetAndLength() {
        List<DataFrame> frames = new FrameWriter().dataFrames(1, block(100), 10, 20, false);
        assertEquals(1, frames.size());
        assertArrayEquals(java.util.Arrays.copyOfRange(block(100), 10, 30), frames.get(0).data());
        assertFalse(frames.get(0).endStream());
    }

    @Test
    void emptyDataWithEndStreamIsOneEmptyFrame() {
        List<DataFrame> frames = new FrameWriter().dataFrames(1, new byte[0], 0, 0, true);
        assertEquals(1, frames.size());
        assertEquals(0, frames.get(0).data().length);
        assertTrue(frames.get(0).endStream());
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
