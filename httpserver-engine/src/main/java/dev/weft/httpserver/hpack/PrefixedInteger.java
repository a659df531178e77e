package dev.weft.httpserver.hpack;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/** RFC 7541 §5.1 prefixed integer representation. Values are limited to {@code Integer.MAX_VALUE}. */
public final class PrefixedInteger {

    /** Continuation octets after the prefix beyond which a value can only overflow 31 bits. */
    private static final int MAX_CONTINUATION_SHIFT = 28;

    private PrefixedInteger() {
    }

    /**
     * Writes {@code value} with an N-bit prefix; {@code flags} supplies the high bits of the first octet
     * (those above the prefix).
     */
    public static void encode(ByteArrayOutputStream out, int flags, int prefixBits, int value) {
        checkPrefix(prefixBits);
        if (value < 0) {
            throw new IllegalArgumentException("negative value " + value);
        }
        int max = (1 << prefixBits) - 1;
        if (value < max) {
            out.write(flags | value);
            return;
        }
        out.write(flags | max);
        int rest = value - max;
        while (rest >= 0x80) {
            out.write((rest & 0x7f) | 0x80);
            rest >>>= 7;
        }
        out.write(rest);
    }

    /**
     * Reads an integer with an N-bit prefix starting at the buffer's position (the first octet's high
     * bits are ignored) and advances past it.
     */
    public static int decode(ByteBuffer in, int prefixBits) throws HpackException {
        checkPrefix(prefixBits);
        if (!in.hasRemaining()) {
            throw HpackException.compression("truncated integer");
        }
        int max = (1 << prefixBits) - 1;
        int value = in.get() & max;
        if (value < max) {
            return value;
        }
        long result = value;
        int shift = 0;
        while (true) {
            if (!in.hasRemaining()) {
                throw HpackException.compression("truncated integer");
            }
            int b = in.get() & 0xff;
            result += (long) (b & 0x7f) << shift;
            if (result > Integer.MAX_VALUE) {
                throw HpackException.compression("integer overflow");
            }
            if ((b & 0x80) == 0) {
                return (int) result;
            }
            shift += 7;
            if (shift > MAX_CONTINUATION_SHIFT) {
                throw HpackException.compression("integer overflow (too many continuation octets)");
            }
        }
    }

    private static void checkPrefix(int prefixBits) {
        if (prefixBits < 1 || prefixBits > 8) {
            throw new IllegalArgumentException("prefix bits must be 1..8: " + prefixBits);
        }
    }
}
