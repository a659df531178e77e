package dev.weft.httpserver.core;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link ConnectionInput}: releasing the buffer after an upgrade. */
class ConnectionInputTest {

    /** The socket side: records the length asked of every read. */
    private static final class Source extends ByteArrayInputStream {
        final List<Integer> asked = new ArrayList<>();

        Source(String s) {
            super(s.getBytes(StandardCharsets.ISO_8859_1));
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) {
            asked.add(len);
            return super.read(b, off, Math.min(len, 6));
        }
    }

    @Test
    void releasedBufferKeepsUnreadBytesThenReadsGoStraightToTheSocket() throws IOException {
        Source source = new Source("GET / HTTP/1.1\r\n\r\nframe1frame2");
        ConnectionInput in = new ConnectionInput(source, 32, 1024);
        in.readTimeoutNanos(Long.MAX_VALUE / 4);
        in.fill();
        in.fill();
        in.fill();
        in.fill();
        assertEquals(24, in.buffered());
        in.position(in.position() + 18); // the head was parsed

        in.releaseBuffer();
        assertEquals(0, in.buffer().length - in.buffered(), "only the unread bytes are kept");
        byte[] b = new byte[4];
        assertEquals(4, in.read(b, 0, 4));
        assertEquals("fram", new String(b, StandardCharsets.ISO_8859_1));
        assertEquals(2, in.read(b, 0, 4));
        assertEquals("e1", new String(b, 0, 2, StandardCharsets.ISO_8859_1));
        source.asked.clear();
        assertEquals(4, in.read(b, 0, 4));
        assertEquals(List.of(4), source.asked, "read straight into the caller's array");
        assertEquals("fram", new String(b, StandardCharsets.ISO_8859_1));
        assertEquals('e', in.read(), "a one-byte read still works");
        assertEquals('2', in.read());
        assertEquals(-1, in.read(b, 0, 4));
    }

    @Test
    void releasedEmptyBufferHoldsNothing() throws IOException {
        InputStream source = new ByteArrayInputStream(new byte[0]);
        ConnectionInput in = new ConnectionInput(source, 8192, 8192);
        in.releaseBuffer();
        assertEquals(0, in.buffer().length);
    }

    /** The socket side of the idle-buffer tests: hands over whatever fits. */
    private static ByteArrayInputStream socket(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void aRequestThatFitsTheIdleBufferNeverTakesFromThePool() throws IOException {
        BufferPool pool = new BufferPool(64, 4);
        pool.give(new byte[64]);
        ConnectionInput in = new ConnectionInput(socket("GET / HTTP/1.1\r\n\r\n"), pool, 32, 1024);
        in.readTimeoutNanos(Long.MAX_VALUE / 4);
        assertEquals(18, in.fill());
        assertEquals(32, in.buffer().length);
        assertEquals(1, pool.kept());
    }

    @Test
    void moreThanTheIdleBufferHoldsContinuesInAPoolBufferThatParkingGivesBack() throws IOException {
        BufferPool pool = new BufferPool(64, 4);
        String head = "GET /a-longer-target HTTP/1.1\r\nHost: x\r\n\r\n";
        ConnectionInput in = new ConnectionInput(socket(head), pool, 16, 1024);
        in.readTimeoutNanos(Long.MAX_VALUE / 4);
        while (in.buffered() < head.length()) {
            in.fill();
        }
        assertEquals(64, in.buffer().length, "a buffer of the pool's size");
        assertEquals(head, new String(in.buffer(), in.position(), in.buffered(), StandardCharsets.ISO_8859_1));

        in.park();
        assertEquals(64, in.buffer().length, "unread bytes keep their buffer");
        in.position(in.limit());
        in.park();
        assertEquals(16, in.buffer().length, "the idle buffer again");
        assertEquals(1, pool.kept());
    }
}
