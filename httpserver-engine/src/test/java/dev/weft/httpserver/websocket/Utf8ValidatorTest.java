package dev.weft.httpserver.websocket;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The incremental UTF-8 check against RFC 3629 §4, fed whole and byte by byte. */
class Utf8ValidatorTest {

    private static byte[] b(int... v) {
        byte[] out = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (byte) v[i];
        }
        return out;
    }

    private static boolean byteByByte(byte[] s) {
        Utf8Validator v = new Utf8Validator();
        for (byte x : s) {
            if (!v.feed(new byte[] {x}, 0, 1)) {
                return false;
            }
        }
        return v.atBoundary();
    }

    @Test
    void validTextOfEveryLengthClassIsAccepted() {
        String s = "a\u00e9\u20ac\ud83d\ude00\u07ff\u0800\uffff\udbff\udfff";
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        assertTrue(Utf8Validator.isValid(utf8, 0, utf8.length));
        assertTrue(byteByByte(utf8));
    }

    @Test
    void invalidSequencesAreRejected() {
        byte[][] bad = {
            b(0x80), b(0xbf), b(0xc0, 0x80), b(0xc1, 0xbf), // lone continuation, overlong 2-byte
            b(0xe0, 0x80, 0x80), b(0xe0, 0x9f, 0xbf), // overlong 3-byte
            b(0xed, 0xa0, 0x80), b(0xed, 0xbf, 0xbf), // surrogates
            b(0xf0, 0x80, 0x80, 0x80), b(0xf0, 0x8f, 0xbf, 0xbf), // overlong 4-byte
            b(0xf4, 0x90, 0x80, 0x80), b(0xf5, 0x80, 0x80, 0x80), b(0xff), b(0xfe), // above U+10FFFF, never valid
            b(0xc2, 0x41), b(0xe2, 0x82, 0x41), // missing continuation
        };
        for (byte[] s : bad) {
            assertFalse(Utf8Validator.isValid(s, 0, s.length), java.util.HexFormat.of().formatHex(s));
            assertFalse(byteByByte(s), java.util.HexFormat.of().formatHex(s));
        }
    }

    @Test
    void truncatedCharacterIsNotABoundaryButCountsAsUnfinished() {
        Utf8Validator v = new Utf8Validator();
        assertTrue(v.feed(b('x', 0xf0, 0x9f, 0x98), 0, 4));
        assertFalse(v.atBoundary());
        assertEquals(3, v.unfinished());
        assertTrue(v.feed(b(0x80), 0, 1));
        assertTrue(v.atBoundary());
        assertEquals(0, v.unfinished());
    }

    @Test
    void failureIsReportedAtTheFirstBadByteAndSticks() {
        Utf8Validator v = new Utf8Validator();
        assertTrue(v.feed(b(0xce, 0xba), 0, 2));
        assertFalse(v.feed(b(0xf4, 0x90), 0, 2));
        assertFalse(v.feed(b('a'), 0, 1));
        v.reset();
        assertTrue(v.feed(b('a'), 0, 1));
    }

    @Test
    void longAsciiRunsAreCheckedEightBytesAtATimeWithoutMissingABadByteAnywhere() {
        for (int length = 0; length < 40; length++) {
            byte[] ascii = new byte[length];
            java.util.Arrays.fill(ascii, (byte) 'a');
            assertTrue(Utf8Validator.isValid(ascii, 0, length));
            for (int bad = 0; bad < length; bad++) {
                byte[] b = ascii.clone();
                b[bad] = (byte) 0xff;
                assertFalse(Utf8Validator.isValid(b, 0, length), "0xff at " + bad + " of " + length);
                b[bad] = (byte) 0xc3; // a lead byte inside an ASCII run needs its continuation
                assertFalse(Utf8Validator.isValid(b, 0, length), "0xc3 at " + bad + " of " + length);
            }
            // From an offset, and a valid two-byte character after a run of every length.
            byte[] mixed = ("xx" + "a".repeat(length) + "é").getBytes(StandardCharsets.UTF_8);
            assertTrue(Utf8Validator.isValid(mixed, 2, mixed.length - 2));
        }
    }
}
