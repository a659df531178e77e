package dev.weft.httpserver.accesslog;

import java.net.InetAddress;
import java.util.Arrays;

/**
 * Access log lines being formatted: ASCII bytes that grow as needed, each line ended by {@code \n}. Used by one
 * thread at a time; {@link #take()} hands what was built to the writer and leaves the buffer without an array until
 * the next line, so that an idle connection holds none.
 */
final class LineBuffer {

    /** 10^i at index i, up to the largest a long holds. */
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        long p = 1;
        for (int i = 0; i < POWERS_OF_TEN.length; i++, p *= 10) {
            POWERS_OF_TEN[i] = p;
        }
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** Largest array a new buffer starts with, however large the last batch was. */
    private static final int MAX_START = 16 * 1024;
    /** Smallest array a new buffer starts with. */
    private static final int MIN_START = 64;

    private static final byte[] NONE = new byte[0];

    private byte[] bytes = NONE;
    private int length;
    private int lines;
    /** Size of the next array: what the last batch needed. */
    private int startSize;
    private InetAddress lastAddress;
    private String lastAddressText;

    LineBuffer(int startSize) {
        this.startSize = Math.max(startSize, MIN_START);
    }

    /** Bytes built so far. */
    int length() {
        return length;
    }

    /** Lines ended so far. */
    int lines() {
        return lines;
    }

    /** Appends {@code c}, which is ASCII. */
    void append(char c) {
        room(1);
        bytes[length++] = (byte) c;
    }

    /** Appends {@code ascii}. */
    void append(byte[] ascii) {
        int n = ascii.length;
        room(n);
        byte[] b = bytes;
        int at = length;
        if (n > 8) {
            System.arraycopy(ascii, 0, b, at, n);
        } else {
            for (int i = 0; i < n; i++) { // a few bytes of pattern text: a loop beats System.arraycopy's set-up
                b[at + i] = ascii[i];
            }
        }
        length = at + n;
    }

    /** Appends {@code s}, which is ASCII (pattern text, numbers, addresses, the time). */
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): the ASCII copy wanted here
    void appendAscii(String s) {
        int n = s.length();
        room(n);
        s.getBytes(0, n, bytes, length);
        length += n;
    }

    /** Appends {@code address} as text; the text of the last address is kept, as a connection repeats it. */
    void appendAddress(InetAddress address) {
        if (address != lastAddress) {
            lastAddressText = address.getHostAddress();
            lastAddress = address;
        }
        appendAscii(lastAddressText);
    }

    /** Appends {@code status}, a number of three digits on every exchange that sent one, in decimal. */
    void appendStatus(int status) {
        if (status < 100 || status > 999) {
            appendNumber(status);
            return;
        }
        room(3);
        byte[] b = bytes;
        int at = length;
        b[at] = (byte) ('0' + status / 100);
        b[at + 1] = (byte) ('0' + status / 10 % 10);
        b[at + 2] = (byte) ('0' + status % 10);
        length = at + 3;
    }

    /** Appends {@code n} in decimal. */
    void appendNumber(long n) {
        if (n < 0) {
            if (n == Long.MIN_VALUE) {
                appendAscii(Long.toString(n));
                return;
            }
            append('-');
            n = -n;
        }
        int digits = 1;
        while (digits < POWERS_OF_TEN.length && n >= POWERS_OF_TEN[digits]) {
            digits++;
        }
        room(digits);
        byte[] b = bytes;
        int i = length + digits;
        length = i;
        do {
            b[--i] = (byte) ('0' + n % 10);
            n /= 10;
        } while (n != 0);
    }

    /**
     * Appends {@code s[from, to)} so that the line stays one parseable ASCII line: {@code "} and {@code \} get a
     * backslash, other control and non-ASCII characters become {@code \xhh} (or {@code \\uhhhh} above U+00FF).
     */
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): the ASCII copy wanted here
    void appendEscaped(String s, int from, int to) {
        int clean = from;
        while (clean < to && plain(s.charAt(clean))) {
            clean++;
        }
        room(to - from);
        s.getBytes(from, clean, bytes, length);
        length += clean - from;
        for (int i = clean; i < to; i++) {
            char c = s.charAt(i);
            if (plain(c)) {
                append(c);
            } else if (c == '"' || c == '\\') {
                append('\\');
                append(c);
            } else {
                append('\\');
                if (c > 0xff) {
                    append('u');
                    append(HEX[c >> 12]);
                    append(HEX[(c >> 8) & 0xf]);
                } else {
                    append('x');
                }
                append(HEX[(c >> 4) & 0xf]);
                append(HEX[c & 0xf]);
            }
        }
    }

    /** Whether {@code c} is written as it is. */
    private static boolean plain(char c) {
        return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
    }

    /** Ends the current line. */
    void endLine() {
        append('\n');
        lines++;
    }

    /**
     * The lines built so far, for the writer; the buffer starts empty, its next array a little larger than what
     * these lines took (not the largest ever: every batch would then allocate and clear that much).
     */
    Lines take() {
        Lines taken = new Lines(bytes, length, lines);
        startSize = Math.min(MAX_START, Math.max(MIN_START, length + (length >> 3)));
        bytes = NONE;
        length = 0;
        lines = 0;
        return taken;
    }

    /** What was built so far, as text (for tests and the logger destination). */
    @Override
    public String toString() {
        return new String(bytes, 0, length, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** Makes room for {@code n} more bytes; small enough to inline where every append calls it. */
    private void room(int n) {
        if (bytes.length - length < n) {
            grow(n);
        }
    }

    private void grow(int n) {
        bytes = bytes == NONE ? new byte[Math.max(startSize, n)]
                : Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + n));
    }
}
