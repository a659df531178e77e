package dev.weft.httpserver.forms;

import dev.weft.httpserver.core.CharClasses;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Percent-encoding (RFC 3986 §2.1) both ways, strict: a malformed escape, or bytes that are not valid in the
 * charset, are an error ({@link FormException}, {@code 400}) rather than passed through. Stateless.
 */
public final class PercentEncoding {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private PercentEncoding() {
    }

    /** {@code s} decoded as UTF-8; with {@code plusAsSpace}, {@code +} is a space (form encoding). */
    public static String decode(String s, boolean plusAsSpace) throws FormException {
        if (s.indexOf('%') < 0 && (!plusAsSpace || s.indexOf('+') < 0)) {
            return s;
        }
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        return decode(bytes, 0, bytes.length, plusAsSpace, StandardCharsets.UTF_8);
    }

    /** {@code bytes[from, to)} decoded in {@code charset}; with {@code plusAsSpace}, {@code +} is a space. */
    static String decode(byte[] b, int from, int to, boolean plusAsSpace, Charset charset) throws FormException {
        byte[] out = new byte[to - from];
        int n = 0;
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c == '+' && plusAsSpace) {
                out[n++] = ' ';
            } else if (c == '%') {
                if (i + 2 >= to || !CharClasses.isHexDigit(b[i + 1]) || !CharClasses.isHexDigit(b[i + 2])) {
                    throw FormException.malformed("malformed percent-escape");
                }
                out[n++] = (byte) (CharClasses.hexValue(b[i + 1]) << 4 | CharClasses.hexValue(b[i + 2]));
                i += 2;
            } else {
                out[n++] = c;
            }
        }
        return strict(out, n, charset);
    }

    /** {@code bytes[0, length)} in {@code charset}, refusing malformed input. */
    static String strict(byte[] bytes, int length, Charset charset) throws FormException {
        try {
            return charset.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, length)).toString();
        } catch (CharacterCodingException e) {
            throw FormException.malformed("not valid " + charset.name());
        }
    }

    /** A path segment with every byte of its UTF-8 form but the unreserved characters (RFC 3986 §2.3) escaped. */
    public static String encodeSegment(String segment) {
        byte[] bytes = segment.getBytes(StandardCharsets.UTF_8);
        StringBuilder b = new StringBuilder(bytes.length + 16);
        for (byte x : bytes) {
            int c = x & 0xff;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '-' || c == '.' || c == '_' || c == '~') {
                b.append((char) c);
            } else {
                b.append('%').append(HEX[c >> 4]).append(HEX[c & 15]);
            }
        }
        return b.toString();
    }
}
