package dev.weft.httpserver.http1;

import dev.weft.httpserver.core.CharClasses;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link FieldLines#indexOfLf} and {@link FieldLines#isFieldValue}, which look at eight bytes at a time, against
 * byte-by-byte scans.
 */
class FieldLinesTest {

    /** Bytes that differ from LF in one bit, or have the high bit set, around the LF. */
    private static final byte[] NEIGHBOURS = {0x0B, 0x08, 0x0E, 0x1A, (byte) 0x8A, (byte) 0xFF, (byte) 0x80, 0x00, '\r', 'a'};

    @Test
    void theFirstLfIsFoundAtEveryOffsetOfEveryWindow() {
        for (int length = 0; length <= 40; length++) {
            for (int from = 0; from <= length; from++) {
                for (int lf = -1; lf < length; lf++) {
                    for (byte filler : NEIGHBOURS) {
                        byte[] b = new byte[length];
                        Arrays.fill(b, filler);
                        if (lf >= 0) {
                            b[lf] = '\n';
                            if (lf + 3 < length) {
                                b[lf + 3] = '\n'; // a later LF never wins
                            }
                        }
                        for (int limit = from; limit <= length; limit++) {
                            assertEquals(naive(b, from, limit), FieldLines.indexOfLf(b, from, limit),
                                    "length " + length + ", from " + from + ", limit " + limit + ", LF at " + lf
                                            + ", filler " + filler);
                        }
                    }
                }
            }
        }
    }

    @Test
    void noLfInAWindowOfOtherBytesIsMinusOne() {
        byte[] b = new byte[256];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i == '\n' ? 0 : i);
        }
        assertEquals(-1, FieldLines.indexOfLf(b, 0, b.length));
        b[200] = '\n';
        assertEquals(200, FieldLines.indexOfLf(b, 0, b.length));
        assertEquals(-1, FieldLines.indexOfLf(b, 0, 200));
        assertEquals(-1, FieldLines.indexOfLf(b, 201, b.length));
    }

    @Test
    void everyByteValueIsJudgedAsTheCharacterClassesJudgeItAtEveryPosition() {
        for (int value = 0; value < 256; value++) {
            for (int length = 1; length <= 19; length++) {
                for (int at = 0; at < length; at++) {
                    for (byte filler : new byte[] {'a', ' ', '\t', (byte) 0x80, (byte) 0xFF, '~'}) {
                        byte[] b = new byte[length + 2];
                        Arrays.fill(b, filler);
                        b[1 + at] = (byte) value;
                        boolean expected = CharClasses.isFieldValue(filler) && CharClasses.isFieldValue((byte) value);
                        assertEquals(expected, FieldLines.isFieldValue(b, 1, 1 + length),
                                "byte " + value + " at " + at + " of " + length + " among " + filler);
                    }
                }
            }
        }
    }

    @Test
    void aControlByteAfterAByteThatBorrowsIsStillFound() {
        // 0x20 just above a byte below it turns negative in the word arithmetic: the slow path must still judge
        // every byte of the word.
        byte[] b = {' ', 0x1F, ' ', ' ', ' ', ' ', ' ', ' ', ' '};
        assertFalse(FieldLines.isFieldValue(b, 0, 8));
        byte[] tab = {'\t', ' ', ' ', ' ', ' ', ' ', ' ', ' '};
        assertTrue(FieldLines.isFieldValue(tab, 0, 8));
    }

    private static int naive(byte[] b, int from, int limit) {
        for (int i = from; i < limit; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
