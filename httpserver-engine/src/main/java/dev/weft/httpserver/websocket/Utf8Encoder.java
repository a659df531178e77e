package dev.weft.httpserver.websocket;

/**
 * Encodes outgoing text as UTF-8 (RFC 3629) straight into the array a frame is written from: ASCII, the common
 * case, is copied in one pass; other characters are encoded in a second pass sized exactly. A text frame must
 * carry valid UTF-8 (RFC 6455 §5.6, §8.1), and a lone UTF-16 surrogate has no UTF-8 form, so one is refused
 * with {@link IllegalArgumentException} rather than silently replaced by {@code ?} as
 * {@link String#getBytes(java.nio.charset.Charset)} would. Stateless.
 */
final class Utf8Encoder {

    private Utf8Encoder() {
    }

    /**
     * The UTF-8 bytes of {@code text}, starting at index {@code room} of the returned array (the bytes before
     * it are free for a frame header).
     *
     * @throws IllegalArgumentException if {@code text} holds a lone surrogate
     */
    static byte[] encode(CharSequence text, int room) {
        int len = text.length();
        byte[] b = new byte[room + len];
        int i = 0;
        // ASCII: one byte per char.
        while (i < len) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                break;
            }
            b[room + i] = (byte) c;
            i++;
        }
        if (i == len) {
            return b;
        }
        byte[] out = new byte[room + i + encodedLength(text, i)];
        System.arraycopy(b, room, out, room, i);
        int p = room + i;
        while (i < len) {
            char c = text.charAt(i++);
            if (c < 0x80) {
                out[p++] = (byte) c;
            } else if (c < 0x800) {
                out[p++] = (byte) (0xC0 | c >> 6);
                out[p++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c)) {
                // encodedLength checked that a low surrogate follows
                int cp = Character.toCodePoint(c, text.charAt(i++));
                out[p++] = (byte) (0xF0 | cp >> 18);
                out[p++] = (byte) (0x80 | cp >> 12 & 0x3F);
                out[p++] = (byte) (0x80 | cp >> 6 & 0x3F);
                out[p++] = (byte) (0x80 | cp & 0x3F);
            } else {
                out[p++] = (byte) (0xE0 | c >> 12);
                out[p++] = (byte) (0x80 | c >> 6 & 0x3F);
                out[p++] = (byte) (0x80 | c & 0x3F);
            }
        }
        return out;
    }

    /** UTF-8 length of {@code text} from index {@code from}; checks that every surrogate is paired. */
    private static int encodedLength(CharSequence text, int from) {
        int len = text.length();
        int n = 0;
        for (int i = from; i < len; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c)) {
                if (i + 1 == len || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    throw loneSurrogate(i);
                }
                i++;
                n += 4;
            } else if (Character.isLowSurrogate(c)) {
                throw loneSurrogate(i);
            } else {
                n += 3;
            }
        }
        return n;
    }

    private static IllegalArgumentException loneSurrogate(int index) {
        return new IllegalArgumentException("text is not valid UTF-16: lone surrogate at index " + index
                + " (a text frame must be valid UTF-8)");
    }
}
