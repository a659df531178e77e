package dev.weft.httpserver.accesslog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What a line buffer writes for numbers, statuses and literal text of every size. */
class LineBufferTest {

    @Test
    void numbersAreWrittenAsLongToStringWritesThem() {
        StringBuilder expected = new StringBuilder();
        LineBuffer line = new LineBuffer(64);
        for (long power = 1; power > 0 && power <= Long.MAX_VALUE / 10; power *= 10) {
            for (long n : new long[] {power - 1, power, power + 1, power * 10 - 1, -power, -(power - 1)}) {
                line.appendNumber(n);
                line.append(' ');
                expected.append(n).append(' ');
            }
        }
        for (long n : new long[] {Integer.MAX_VALUE, Integer.MAX_VALUE + 1L, Integer.MIN_VALUE, Long.MAX_VALUE,
                Long.MIN_VALUE, Long.MIN_VALUE + 1}) {
            line.appendNumber(n);
            line.append(' ');
            expected.append(n).append(' ');
        }
        assertEquals(expected.toString(), line.toString());
    }

    @Test
    void statusesAreWrittenInDecimalWhateverTheirNumberOfDigits() {
        StringBuilder expected = new StringBuilder();
        LineBuffer line = new LineBuffer(64);
        for (int status = -1; status <= 1000; status++) {
            line.appendStatus(status);
            line.append(' ');
            expected.append(status).append(' ');
        }
        for (int status : new int[] {Integer.MAX_VALUE, Integer.MIN_VALUE, 10_000}) {
            line.appendStatus(status);
            line.append(' ');
            expected.append(status).append(' ');
        }
        assertEquals(expected.toString(), line.toString());
    }

    @Test
    void literalTextOfAnyLengthIsCopiedWhole() {
        StringBuilder expected = new StringBuilder();
        LineBuffer line = new LineBuffer(64);
        for (int n = 0; n <= 40; n++) {
            String text = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH".substring(0, n);
            line.append(text.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            expected.append(text);
        }
        assertEquals(expected.toString(), line.toString());
    }
}
