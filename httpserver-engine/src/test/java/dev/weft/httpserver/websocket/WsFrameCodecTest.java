package dev.weft.httpserver.websocket;

import dev.weft.httpserver.testing.RawWsClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Frame headers and payloads (RFC 6455 §5.2): the writer's encoding and the reader's checks, whole and byte by byte. */
class WsFrameCodecTest {

    /** Hands out one byte per read, as a slow network would. */
    private static InputStream trickle(byte[] b) {
        return new ByteArrayInputStream(b) {
            @Override
            public synchronized int read(byte[] dst, int off, int len) {
                return super.read(dst, off, Math.min(len, 1));
            }
        };
    }

    private static WsFrameReader reader(byte[] wire, boolean oneByteAtATime, long maxFrameSize, boolean rsv1) {
        return new WsFrameReader(oneByteAtATime ? trickle(wire) : new ByteArrayInputStream(wire), maxFrameSize,
                rsv1, () -> { });
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 5, 125, 126, 65535, 65536, 70000})
    void maskedFramesOfEveryLengthReadBackWholeAndByteByByte(int length) throws Exception {
        byte[] payload = new byte[length];
        for (int i = 0; i < length; i++) {
            payload[i] = (byte) (i * 13);
        }
        byte[] wire = RawWsClient.frame(false, 0, 0x2, payload, true);
        for (boolean slow : new boolean[] {false, true}) {
            WsFrameReader r = reader(wire, slow, 1 << 20, false);
            assertTrue(r.next());
            assertFalse(r.fin());
            assertEquals(0x2, r.opcode());
            assertEquals(length, r.remaining());
            byte[] got = new byte[length];
            r.readFully(got, 0);
            assertArrayEquals(payload, got);
            assertFalse(r.next(), "clean end of stream between frames");
        }
    }

    @Test
    void writerUsesTheShortestLengthEncodingAndNoMask() {
        byte[] h = new byte[10];
        assertEquals(2, WsFrameWriter.encodeHeader(h, true, false, 0x1, 125));
        assertEquals((byte) 0x81, h[0]);
        assertEquals(125, h[1]);
        assertEquals(4, WsFrameWriter.encodeHeader(h, false, true, 0x2, 126));
        assertEquals(0x42, h[0]);
        assertEquals(126, h[1]);
        assertEquals(10, WsFrameWriter.encodeHeader(h, true, false, 0x2, 65536));
        assertEquals(127, h[1]);
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 1, 0, 0}, Arrays.copyOfRange(h, 2, 10));
    }

    @Test
    void writtenFramesAreWhatTheRfcSays() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WsFrameWriter w = new WsFrameWriter(out);
        w.frame(true, false, 0x1, "Hello".getBytes(), 0, 5);
        // RFC 6455 §5.7: a single-frame unmasked text message "Hello"
        assertArrayEquals(new byte[] {(byte) 0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f}, out.toByteArray());
    }

    @Test
    void rfcExampleOfAMaskedHelloIsUnmasked() throws Exception {
        // RFC 6455 §5.7: a single-frame masked text message "Hello"
        byte[] wire = {(byte) 0x81, (byte) 0x85, 0x37, (byte) 0xfa, 0x21, 0x3d, 0x7f, (byte) 0x9f, 0x4d, 0x51, 0x58};
        WsFrameReader r = reader(wire, false, 100, false);
        assertTrue(r.next());
        byte[] got = new byte[5];
        r.readFully(got, 0);
        assertEquals("Hello", new String(got));
    }

    private static int failureCode(byte[] wire, long maxFrameSize, boolean rsv1) {
        return assertThrows(SessionFailure.class, () -> reader(wire, false, maxFrameSize, rsv1).next()).code();
    }

    @Test
    void headerRulesFailWithTheirCloseCodes() {
        assertEquals(1002, failureCode(RawWsClient.frame(true, 0, 0x1, new byte[1], false), 100, false), "unmasked");
        assertEquals(1002, failureCode(RawWsClient.frame(true, 4, 0x1, new byte[1], true), 100, false), "RSV1");
        assertEquals(1002, failureCode(RawWsClient.frame(true, 2, 0x1, new byte[1], true), 100, true), "RSV2");
        assertEquals(1002, failureCode(RawWsClient.frame(true, 4, 0x0, new byte[1], true), 100, true), "RSV1 cont.");
        assertEquals(1002, failureCode(RawWsClient.frame(true, 4, 0x9, new byte[1], true), 100, true), "RSV1 ping");
        assertEquals(1002, failureCode(RawWsClient.frame(true, 0, 0x3, new byte[1], true), 100, false), "opcode");
        assertEquals(1002, failureCode(RawWsClient.frame(false, 0, 0x8, new byte[2], true), 100, false), "frag. close");
        assertEquals(1002, failureCode(RawWsClient.frame(true, 0, 0xA, new byte[126], true), 1000, false), "long pong");
        assertEquals(1009, failureCode(RawWsClient.frame(true, 0, 0x2, new byte[101], true), 100, false), "too big");
    }

    @Test
    void tooBigIsDecidedFromTheHeaderAlone() {
        // only the header of a 2 GiB frame: no payload follows, yet the answer is 1009
        byte[] header = {(byte) 0x82, (byte) 0xff, 0, 0, 0, 0, (byte) 0x80, 0, 0, 0, 1, 2, 3, 4};
        assertEquals(1009, failureCode(header, 1 << 20, false));
    }

    @Test
    void endOfStreamInsideAFrameIsAnError() throws Exception {
        byte[] wire = RawWsClient.frame(true, 0, 0x1, "abc".getBytes(), true);
        assertThrows(EOFException.class, () -> reader(Arrays.copyOf(wire, 3), false, 100, false).next());
        WsFrameReader r = reader(Arrays.copyOf(wire, wire.length - 1), false, 100, false);
        assertTrue(r.next());
        assertThrows(EOFException.class, () -> r.readFully(new byte[3], 0));
    }

    @Test
    void lenientReaderSkipsWhatTheStrictOneRefuses() throws Exception {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        wire.writeBytes(RawWsClient.frame(true, 0, 0x1, "x".getBytes(), false));   // unmasked
        wire.writeBytes(RawWsClient.frame(true, 7, 0x5, new byte[300], true));     // RSV bits, reserved opcode
        wire.writeBytes(RawWsClient.frame(true, 0, 0x8, new byte[] {3, (byte) 0xe8}, true));
        WsFrameReader r = reader(wire.toByteArray(), false, 100, false);
        assertThrows(SessionFailure.class, r::next);
        r.lenient();
        assertTrue(r.next());
        r.skip();
        assertTrue(r.next());
        r.skip();
        assertTrue(r.next());
        assertEquals(0x8, r.opcode());
    }

    @Test
    void readBufferGrowsWhileBytesKeepComingAndIsSmallAgainWhenTheConnectionGoesQuiet() throws Exception {
        // A burst of frames of many sizes around the buffer sizes, in one stream that fills every read.
        int[] sizes = {0, 1, 125, 126, 505, 506, 507, 511, 512, 513, 8191, 8192, 8193, 20000, 3, 300};
        java.io.ByteArrayOutputStream burst = new java.io.ByteArrayOutputStream();
        for (int size : sizes) {
            byte[] p = new byte[size];
            java.util.Arrays.fill(p, (byte) size);
            burst.write(RawWsClient.frame(true, 0, 0x2, p, true));
        }
        byte[] quiet = RawWsClient.frame(true, 0, 0x1, "ping?".getBytes(StandardCharsets.UTF_8), true);
        byte[] wire = java.util.Arrays.copyOf(burst.toByteArray(), burst.size() + quiet.length);
        System.arraycopy(quiet, 0, wire, burst.size(), quiet.length);
        // Hands out the burst as fast as it is asked for, then the last frame in a read of its own.
        int burstEnd = burst.size();
        InputStream in = new ByteArrayInputStream(wire) {
            @Override
            public synchronized int read(byte[] dst, int off, int len) {
                int limit = pos < burstEnd ? Math.min(len, burstEnd - pos) : len;
                return super.read(dst, off, limit);
            }
        };
        WsFrameReader r = new WsFrameReader(in, 1 << 20, false, () -> { });
        boolean grew = false;
        for (int size : sizes) {
            assertTrue(r.next());
            assertEquals(size, r.remaining());
            byte[] got = new byte[size];
            r.readFully(got, 0);
            byte[] expected = new byte[size];
            java.util.Arrays.fill(expected, (byte) size);
            assertArrayEquals(expected, got, "frame of " + size);
            grew |= r.bufferSize() == WsFrameReader.LARGE;
        }
        assertTrue(grew, "the buffer grew during the burst");
        assertTrue(r.next());
        assertEquals(WsFrameReader.SMALL, r.bufferSize(), "back to the small buffer once a read left room");
        byte[] text = new byte[5];
        r.readFully(text, 0);
        assertEquals("ping?", new String(text, StandardCharsets.UTF_8));
        assertFalse(r.next());
    }
}
