package dev.weft.httpserver.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ConnectionOutput}: bytes, buffering and byte counts. */
class ConnectionOutputTest {

    /** The socket side: records every write call and flush. */
    private static final class Sink extends OutputStream {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final List<Integer> writeSizes = new ArrayList<>();
        byte[] lastArray;
        int flushes;

        @Override
        public void write(int b) {
            writeSizes.add(1);
            bytes.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            writeSizes.add(len);
            lastArray = b;
            bytes.write(b, off, len);
        }

        @Override
        public void flush() {
            flushes++;
        }

        String text() {
            return bytes.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private final Sink sink = new Sink();

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void smallWritesStayBufferedUntilFlush() throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 64);
        out.write(ascii("HTTP/1.1 200 OK\r\n"));
        out.write('\r');

        assertEquals(0, sink.bytes.size());
        assertEquals(18, out.pending());
    }

    @Test
    void flushWritesTheBufferInOneCallAndFlushesTheSocket() throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 64);
        out.write(ascii("abc"));
        out.writeLatin1("def");
        out.writeDecimal(42);

        out.flush();

        assertEquals("abcdef42", sink.text());
        assertEquals(List.of(8), sink.writeSizes);
        assertEquals(1, sink.flushes);
        assertEquals(0, out.pending());
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 9, 10, 99, 100, 12345, 1_000_000_007L, Long.MAX_VALUE})
    void writeDecimalWritesTheDigits(long n) throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 64);

        out.writeDecimal(n);
        out.flush();

        assertEquals(Long.toString(n), sink.text());
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 9, 10, 15, 16, 255, 4096, 0xdeadbeefL, Long.MAX_VALUE})
    void writeHexWritesLowerCaseDigitsWithoutLeadingZeros(long n) throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 64);

        out.writeHex(n);
        out.flush();

        assertEquals(Long.toHexString(n), sink.text());
    }

    @Test
    void writeLatin1WritesTheLowByteOfEachChar() throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 64);

        out.writeLatin1("caf\u00e9 \u00ff");
        out.flush();

        assertArrayEquals(new byte[]{'c', 'a', 'f', (byte) 0xE9, ' ', (byte) 0xFF}, sink.bytes.toByteArray());
    }

    @Test
    void decimalThatDoesNotFitTheRestOfTheBufferStartsAfterADrain() throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 32);
        out.write(ascii("x".repeat(20)));

        out.writeDecimal(Long.MAX_VALUE);
        out.flush();

        assertEquals("x".repeat(20) + Long.MAX_VALUE, sink.text());
    }

    @Test
    void hexThatDoesNotFitTheRestOfTheBufferStartsAfterADrain() throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 32);
        out.write(ascii("x".repeat(25)));

        out.writeHex(0x7fffffffffffffffL);
        out.flush();

        assertEquals("x".repeat(25) + "7fffffffffffffff", sink.text());
    }

    @Test
    void numbersAtEveryBufferOffsetComeOutIntact() throws IOException {
        // Fill to each offset of a 32-byte buffer, then write numbers that straddle the end.
        StringBuilder expected = new StringBuilder();
        ConnectionOutput out = new ConnectionOutput(sink, 32);
        for (int fill = 0; fill < 32; fill++) {
            String pad = "p".repeat(fill);
            out.writeLatin1(pad);
            out.writeDecimal(9_876_543_210L + fill);
            out.writeHex(0xabcdef0123L + fill);
            out.write(';');
            expected.append(pad).append(9_876_543_210L + fill).append(Long.toHexString(0xabcdef0123L + fill)).append(';');
        }
        out.flush();

        assertEquals(expected.toString(), sink.text());
    }

    @Test
    void latin1StringCrossingTheBufferEndComesOutIntact() throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 16);
        out.writeLatin1("0123456789");

        out.writeLatin1("abcdefghij");
        out.flush();

        assertEquals("0123456789abcdefghij", sink.text());
    }

    @Test
    void latin1StringLongerThanTheBufferComesOutIntact() throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 16);
        out.writeLatin1("head:");
        String longer = "L".repeat(50) + "\u00e9";

        out.writeLatin1(longer);
        out.writeLatin1(":tail");
        out.flush();

        assertEquals("head:" + longer + ":tail", sink.text());
    }

    @Test
    void writeThatDoesNotFitDrainsTheBufferFirst() throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 16);
        out.write(ascii("0123456789"));

        out.write(ascii("abcdefghij"));

        assertEquals("0123456789", sink.text());
        assertEquals(10, out.pending());
    }

    @Test
    void writeOfExactlyTheFreeSpaceIsBuffered() throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 16);
        out.write(ascii("0123456789"));

        out.write(ascii("abcdef"));

        assertEquals(0, sink.bytes.size());
        assertEquals(16, out.pending());
    }

    @Test
    void largeWriteBypassesTheBuffer() throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 16);
        out.write(ascii("head"));
        byte[] large = ascii("B".repeat(100));

        out.write(large, 0, large.length);

        assertEquals(List.of(4, 100), sink.writeSizes);
        assertSame(large, sink.lastArray, "the caller's array goes to the socket as is");
        assertEquals(0, out.pending());
        assertEquals("head" + "B".repeat(100), sink.text());
    }

    @Test
    void writeOfExactlyTheBufferSizeBypassesTheBuffer() throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 16);
        out.write('x');
        byte[] exact = ascii("E".repeat(16));

        out.write(exact, 0, exact.length);

        assertSame(exact, sink.lastArray);
        assertEquals(0, out.pending());
    }

    @Test
    void largeWriteHonoursOffsetAndLength() throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 16);
        byte[] large = ascii("<" + "M".repeat(40) + ">");

        out.write(large, 1, 40);

        assertEquals("M".repeat(40), sink.text());
    }

    @Test
    void singleByteWriteOnAFullBufferDrainsFirst() throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 4);
        out.write(ascii("abcd"));

        out.write('e');

        assertEquals("abcd", sink.text());
        assertEquals(1, out.pending());
    }

    @Test
    void takeBytesWrittenCountsBytesThatReachedTheSocketAndResets() throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 16);
        out.write(ascii("12345"));
        assertEquals(0, out.takeBytesWritten(), "buffered bytes are not counted yet");

        out.flush();
        out.write(ascii("B".repeat(40)));

        assertEquals(45, out.takeBytesWritten());
        assertEquals(0, out.takeBytesWritten());
    }

    @Test
    void closeFlushes() throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 16);
        out.write(ascii("bye"));

        out.close();

        assertEquals("bye", sink.text());
        assertEquals(1, sink.flushes);
    }

    @Test
    void noWriteIsInProgressWhenIdle() throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 16);
        out.write(ascii("B".repeat(40)));

        assertEquals(0, out.writeStartedNanos());
    }

    @Test
    void writeInProgressIsStamped() throws IOException {
        long[] seen = new long[1];
        ConnectionOutput[] holder = new ConnectionOutput[1];
        OutputStream probe = new OutputStream() {
            @Override
            public void write(int b) {
            }

            @Override
            public void write(byte[] b, int off, int len) {
                seen[0] = holder[0].writeStartedNanos();
            }
        };
        holder[0] = new ConnectionOutput(probe, 16);

        holder[0].write(ascii("B".repeat(40)));

        assertTrue(seen[0] != 0, "writeStartedNanos is set while the socket write blocks");
    }

    @Test
    void releasedBufferWritesWhatWasPendingAndThenEveryWriteGoesStraightToTheSocket() throws IOException {
        ConnectionOutput out = new ConnectionOutput(sink, 64);
        out.write(ascii("HTTP/1.1 101 Switching Protocols\r\n\r\n"));

        out.releaseBuffer();
        assertEquals(List.of(36), sink.writeSizes, "what was buffered went out first");
        out.write(ascii("frame"));
        out.write('!');
        out.writeLatin1("text longer than nothing");
        out.writeDecimal(1234);
        out.writeHex(255);

        assertEquals(0, out.pending());
        assertEquals(List.of(36, 5, 1, 24, 4, 2), sink.writeSizes);
        assertTrue(sink.text().endsWith("frame!text longer than nothing1234ff"));
        out.flush();
        assertEquals(1, sink.flushes);
    }

    @Test
    void anOutputOnAPoolTakesItsBufferAtTheFirstWriteAndGivesItBackWhenParked() throws IOException {
        BufferPool pool = new BufferPool(64, 4);
        byte[] lent = new byte[64];
        pool.give(lent);
        Sink sink = new Sink();
        ConnectionOutput out = new ConnectionOutput(sink, pool, DataRateMeter.unlimited(), null);
        assertEquals(1, pool.kept(), "no buffer before the first write");

        out.writeLatin1("HTTP/1.1 200 OK\r\n");
        assertEquals(0, pool.kept());
        out.flush();
        assertSame(lent, sink.lastArray, "the response went out of the pool's array");
        out.park();
        assertEquals(1, pool.kept());

        out.write("next".getBytes(StandardCharsets.US_ASCII));
        out.writeDecimal(42);
        out.flush();
        assertEquals("HTTP/1.1 200 OK\r\nnext42", sink.text());
        assertEquals(0, pool.kept());
    }

    @Test
    void parkingKeepsABufferThatHoldsBytes() throws IOException {
        BufferPool pool = new BufferPool(64, 4);
        Sink sink = new Sink();
        ConnectionOutput out = new ConnectionOutput(sink, pool, DataRateMeter.unlimited(), null);
        out.write('x');
        out.park();
        assertEquals(0, pool.kept(), "a buffer with unsent bytes stays");
        out.flush();
        assertEquals("x", sink.text());
    }
}
