package dev.weft.httpserver.websocket;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Utf8Encoder}: the same bytes as the JDK for valid text, lone surrogates refused, room kept in front. */
class Utf8EncoderTest {

    private static byte[] payload(CharSequence text, int room) {
        byte[] b = Utf8Encoder.encode(text, room);
        return Arrays.copyOfRange(b, room, b.length);
    }

    @Test
    void everyLengthClassEncodesAsTheJdkDoes() {
        for (String s : new String[] {"", "hello", "κόσμε", "€uro", "a\u07ffb\u0800c\uffff", "😀 x 𝄞",
                "ascii then é", "é then ascii", "\u0000\u007f\u0080"}) {
            assertArrayEquals(s.getBytes(StandardCharsets.UTF_8), payload(s, 0), s);
            assertArrayEquals(s.getBytes(StandardCharsets.UTF_8), payload(new StringBuilder(s), 10), s);
        }
    }

    @Test
    void randomValidTextEncodesAsTheJdkDoes() {
        Random random = new Random(42);
        for (int round = 0; round < 2000; round++) {
            StringBuilder sb = new StringBuilder();
            int n = random.nextInt(40);
            for (int i = 0; i < n; i++) {
                int cp = switch (random.nextInt(4)) {
                    case 0 -> random.nextInt(0x80);
                    case 1 -> 0x80 + random.nextInt(0x800 - 0x80);
                    case 2 -> {
                        int c = 0x800 + random.nextInt(0x10000 - 0x800);
                        yield Character.isSurrogate((char) c) ? 'x' : c;
                    }
                    default -> 0x10000 + random.nextInt(0x110000 - 0x10000);
                };
                sb.appendCodePoint(cp);
            }
            String s = sb.toString();
            assertArrayEquals(s.getBytes(StandardCharsets.UTF_8), payload(s, 3), s);
        }
    }

    @Test
    void loneSurrogatesAreRefusedRatherThanReplaced() {
        for (String s : new String[] {"\ud83d", "abc\ud83d", "\ud83dabc", "\ude00", "x\ude00y", "é\ud83d",
                "\ude00\ud83d", "ok😀\ud83d"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Utf8Encoder.encode(s, 0));
            assertTrue(e.getMessage().contains("lone surrogate"), e.getMessage());
        }
    }

    @Test
    void roomInFrontIsLeftFree() {
        byte[] b = Utf8Encoder.encode("hé", 10);
        assertArrayEquals(new byte[10], Arrays.copyOf(b, 10));
        assertArrayEquals("hé".getBytes(StandardCharsets.UTF_8), Arrays.copyOfRange(b, 10, b.length));
    }
}
