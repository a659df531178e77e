package dev.weft.httpserver.core;

/** Byte classes from RFC 9110 §5.6.2 (tokens), §5.5 (field values) and RFC 3986 (request targets). */
public final class CharClasses {

    private static final boolean[] TOKEN = new boolean[256];
    private static final boolean[] TARGET = new boolean[256];
    private static final boolean[] FIELD_VALUE = new boolean[256];

    static {
        for (int c = '0'; c <= '9'; c++) {
            TOKEN[c] = true;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            TOKEN[c] = true;
            TOKEN[c - 32] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TOKEN[c] = true;
        }
        // RFC 3986: unreserved, sub-delims, ":", "@", "/", "?", and "%" (escapes checked separately).
        for (int c = 0; c < 128; c++) {
            TARGET[c] = Character.isLetterOrDigit(c);
        }
        for (char c : "-._~!$&'()*+,;=:@/?%".toCharArray()) {
            TARGET[c] = true;
        }
        for (int c = 0x20; c < 256; c++) {
            FIELD_VALUE[c] = c != 0x7f;
        }
        FIELD_VALUE['\t'] = true;
    }

    private CharClasses() {
    }

    public static boolean isToken(byte b) {
        return TOKEN[b & 0xff];
    }

    /** A byte allowed in an origin-form or absolute-form target outside an IP literal. */
    public static boolean isTarget(byte b) {
        return TARGET[b & 0xff];
    }

    /** A byte allowed in a field value: VCHAR, obs-text, SP or HTAB. */
    public static boolean isFieldValue(byte b) {
        return FIELD_VALUE[b & 0xff];
    }

    public static boolean isHexDigit(int c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    public static int hexValue(int c) {
        return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    }
}
