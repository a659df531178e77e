package dev.weft.httpserver.websocket;

/**
 * Checks text as it arrives, byte by byte across frames, against the UTF-8 grammar of RFC 3629 §4 (no
 * overlong forms, no surrogates, nothing above U+10FFFF), so that an invalid message fails at its first bad
 * byte (RFC 6455 §8.1) rather than at its end. Owned by the session's reader thread.
 */
final class Utf8Validator {

    /** Reads 8 bytes at a time for the ASCII fast path; byte order does not matter to the check. */
    private static final java.lang.invoke.VarHandle LONGS =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;

    /** Continuation bytes still expected for the current character. */
    private int needed;
    /** Bytes of the current, unfinished character seen so far. */
    private int seen;
    /** Allowed range of the next continuation byte (narrower right after E0, ED, F0 and F4). */
    private int lower = 0x80;
    private int upper = 0xBF;
    private boolean failed;

    /**
     * Feeds bytes of the text.
     *
     * @return false once a byte cannot continue valid UTF-8 (and from then on)
     */
    boolean feed(byte[] b, int off, int len) {
        if (failed) {
            return false;
        }
        int i = off;
        int end = off + len;
        while (i < end) {
            if (needed == 0) {
                // ASCII runs are the common case: 8 bytes at a time while none has its high bit set.
                while (end - i >= 8 && ((long) LONGS.get(b, i) & HIGH_BITS) == 0) {
                    i += 8;
                }
                while (i < end && b[i] >= 0) {
                    i++;
                }
                if (i == end) {
                    break;
                }
                if (!lead(b[i] & 0xff)) {
                    failed = true;
                    return false;
                }
            } else {
                int c = b[i] & 0xff;
                if (c < lower || c > upper) {
                    failed = true;
                    return false;
                }
                lower = 0x80;
                upper = 0xBF;
                needed--;
                seen = needed == 0 ? 0 : seen + 1;
            }
            i++;
        }
        return true;
    }

    /** RFC 3629 §4: UTF8-2, UTF8-3 and UTF8-4 lead bytes with the range of their second byte. */
    private boolean lead(int c) {
        if (c >= 0xC2 && c <= 0xDF) {
            needed = 1;
        } else if (c == 0xE0) {
            needed = 2;
            lower = 0xA0;
        } else if (c >= 0xE1 && c <= 0xEC || c == 0xEE || c == 0xEF) {
            needed = 2;
        } else if (c == 0xED) {
            needed = 2;
            upper = 0x9F; // no UTF-16 surrogates
        } else if (c == 0xF0) {
            needed = 3;
            lower = 0x90;
        } else if (c >= 0xF1 && c <= 0xF3) {
            needed = 3;
        } else if (c == 0xF4) {
            needed = 3;
            upper = 0x8F; // nothing above U+10FFFF
        } else {
            return false;
        }
        seen = 1;
        return true;
    }

    /** Whether the bytes fed so far end on a character boundary (a text message must). */
    boolean atBoundary() {
        return needed == 0 && !failed;
    }

    /** How many bytes at the end of what was fed belong to a character not finished yet. */
    int unfinished() {
        return needed == 0 ? 0 : seen;
    }

    /** Starts a new text. */
    void reset() {
        needed = 0;
        seen = 0;
        lower = 0x80;
        upper = 0xBF;
        failed = false;
    }

    /** Whether {@code b[off, off+len)} is complete, valid UTF-8. */
    static boolean isValid(byte[] b, int off, int len) {
        Utf8Validator v = new Utf8Validator();
        return v.feed(b, off, len) && v.atBoundary();
    }
}
