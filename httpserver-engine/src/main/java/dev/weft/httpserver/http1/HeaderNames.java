package dev.weft.httpserver.http1;

import dev.weft.httpserver.core.CommonFieldNames;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Turns header-name bytes into the key form {@code com.sun.net.httpserver.Headers} uses (first letter upper
 * case, the rest lower case, e.g. {@code Content-length}), without allocating for common names: those are found
 * in a small open-addressing table keyed by the name's length and its first and last letters, and compared eight
 * bytes at a time.
 */
final class HeaderNames {

    /** Slots of the table: a power of two, more than twice the names. */
    private static final int SLOTS = 256;
    private static final String[] NAMES = new String[SLOTS];
    private static final byte[][] LOWER = new byte[SLOTS][];
    private static final long BIT_5 = 0x2020202020202020L;

    static {
        for (String name : CommonFieldNames.KEY_FORMS) {
            byte[] lower = name.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
            for (byte c : lower) {
                if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-')) {
                    throw new IllegalStateException("equalsIgnoreCase cannot compare " + name + " exactly");
                }
            }
            int slot = slot(lower, 0, lower.length);
            while (NAMES[slot] != null) {
                slot = (slot + 1) & (SLOTS - 1);
            }
            NAMES[slot] = name;
            LOWER[slot] = lower;
        }
    }

    private HeaderNames() {
    }

    /** The normalised key for the token bytes {@code b[from..to)}. */
    static String normalize(byte[] b, int from, int to) {
        int len = to - from;
        for (int slot = slot(b, from, to); NAMES[slot] != null; slot = (slot + 1) & (SLOTS - 1)) {
            byte[] lower = LOWER[slot];
            if (lower.length == len && equalsIgnoreCase(lower, b, from)) {
                return NAMES[slot];
            }
        }
        byte[] key = new byte[len];
        for (int i = 0; i < len; i++) {
            int ch = b[from + i];
            if (i == 0) {
                key[i] = (byte) (ch >= 'a' && ch <= 'z' ? ch - 32 : ch);
            } else {
                key[i] = (byte) (ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
            }
        }
        return new String(key, StandardCharsets.ISO_8859_1);
    }

    /**
     * The first slot to look in for the name {@code b[from..to)}: from its length and its first and last bytes,
     * with bit 5 set (upper-case letters onto lower case; other token bytes may share a slot, no more).
     */
    private static int slot(byte[] b, int from, int to) {
        int h = (to - from) * 961 + (b[from] | 0x20) * 31 + (b[to - 1] | 0x20);
        return (h ^ h >>> 5) & (SLOTS - 1);
    }

    /**
     * Whether the token bytes at {@code b[from..]} are {@code lower} in any case. {@code lower} holds only
     * lower-case letters, digits and {@code -}; setting bit 5 of a token byte gives one of those only when the byte
     * is that character or its upper-case letter, so the bytes are compared eight at a time with bit 5 set.
     */
    private static boolean equalsIgnoreCase(byte[] lower, byte[] b, int from) {
        int i = 0;
        for (; i <= lower.length - Long.BYTES; i += Long.BYTES) {
            if ((FieldLines.word(b, from + i) | BIT_5) != FieldLines.word(lower, i)) {
                return false;
            }
        }
        for (; i < lower.length; i++) {
            if ((b[from + i] | 0x20) != lower[i]) {
                return false;
            }
        }
        return true;
    }
}
