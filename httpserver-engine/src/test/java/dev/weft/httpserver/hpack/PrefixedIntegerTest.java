package dev.weft.httpserver.hpack;

import static dev.weft.httpserver.hpack.Hex.bytes;
import static dev.weft.httpserver.hpack.Hex.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PrefixedIntegerTest {

    private static String encode(int flags, int prefix, int value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrefixedInteger.encode(out, flags, prefix, value);
        return hex(out.toByteArray());
    }

    @Test
    void rfcC11_tenWithFiveBitPrefix() throws HpackException {
        assertEquals("0a", encode(0, 5, 10));
        assertEquals(10, PrefixedInteger.decode(ByteBuffer.wrap(bytes("0a")), 5));
    }

    @Test
    void rfcC12_1337WithFiveBitPrefix() throws HpackException {
        assertEquals("1f9a0a", encode(0, 5, 1337));
        ByteBuffer in = ByteBuffer.wrap(bytes("1f9a0a"));
        assertEquals(1337, PrefixedInteger.decode(in, 5));
        assertFalse(in.hasRemaining());
    }

    @Test
    void rfcC13_42AtOctetBoundary() throws HpackException {
        assertEquals("2a", encode(0, 8, 42));
        assertEquals(42, PrefixedInteger.decode(ByteBuffer.wrap(bytes("2a")), 8));
    }

    @Test
    void flagsAreKeptAndIgnoredOnDecode() throws HpackException {
        assertEquals("ea", encode(0xe0, 5, 10));
        assertEquals(10, PrefixedInteger.decode(ByteBuffer.wrap(bytes("ea")), 5));
        assertEquals("ff9a0a", encode(0xe0, 5, 1337));
    }

    @ParameterizedTest
    @CsvSource({"1,0", "1,1", "1,2", "4,14", "4,15", "4,16", "5,30", "5,31", "5,32", "6,62", "6,63", "7,126", "7,127",
            "7,128", "7,255", "8,254", "8,255", "8,256", "5,2147483647", "1,2147483647", "8,2147483647", "7,16383"})
    void roundTrips(int prefix, int value) throws HpackException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrefixedInteger.encode(out, 0, prefix, value);
        ByteBuffer in = ByteBuffer.wrap(out.toByteArray());
        assertEquals(value, PrefixedInteger.decode(in, prefix));
        assertFalse(in.hasRemaining());
    }

    @Test
    void redundantZeroContinuationIsAccepted() throws HpackException {
        assertEquals(31, PrefixedInteger.decode(ByteBuffer.wrap(bytes("1f8000")), 5));
    }

    @Test
    void overflowIsRejected() {
        // 31 + 0x7fffffe1 + 1 = 2^31
        HpackException e = assertThrows(HpackException.class,
                () -> PrefixedInteger.decode(ByteBuffer.wrap(bytes("1fe1ffffff07")), 5));
        assertTrue(e.isConnectionError());
        assertThrows(HpackException.class,
                () -> PrefixedInteger.decode(ByteBuffer.wrap(bytes("ffffffffffffffff7f")), 7));
    }

    @Test
    void tooManyContinuationOctetsAreRejected() {
        assertThrows(HpackException.class,
                () -> PrefixedInteger.decode(ByteBuffer.wrap(bytes("1f808080808080808000")), 5));
    }

    @Test
    void truncatedIsRejected() {
        assertThrows(HpackException.class, () -> PrefixedInteger.decode(ByteBuffer.wrap(bytes("1f9a")), 5));
        assertThrows(HpackException.class, () -> PrefixedInteger.decode(ByteBuffer.wrap(bytes("1f")), 5));
        assertThrows(HpackException.class, () -> PrefixedInteger.decode(ByteBuffer.allocate(0), 5));
    }

    @Test
    void maxValueDecodes() throws HpackException {
        assertEquals(Integer.MAX_VALUE, PrefixedInteger.decode(ByteBuffer.wrap(bytes("1fe0ffffff07")), 5));
    }
}
