package dev.weft.servlet.request;

import dev.weft.httpserver.forms.FormException;
import dev.weft.httpserver.forms.FormFields;
import dev.weft.httpserver.forms.FormLimits;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code application/x-www-form-urlencoded} data in the request's charset (Servlet 6.1 §3.12): UTF-8 goes
 * through the engine's strict {@link FormFields} parser; another charset is decoded here the same way (pairs
 * split on {@code &}, {@code +} a space, {@code %XX} a byte, then the bytes decoded strictly in that charset).
 * Malformed data fails with a {@link FormException} of {@code 400}, data over a {@link FormLimits} limit with
 * {@code 413}. Stateless.
 */
final class FormDecoder {

    private FormDecoder() {
    }

    /** The pairs of a body read to its end from {@code in}. */
    static List<FormFields.Field> read(InputStream in, Charset charset, FormLimits limits) throws IOException {
        if (charset.equals(StandardCharsets.UTF_8)) {
            return FormFields.readForm(in, limits).asList();
        }
        byte[] body = readBounded(in, limits.maxTotalSize());
        if (charset.equals(StandardCharsets.US_ASCII) || isAsciiSuperset(charset)) {
            // percent-decoded bytes in an ASCII-compatible charset: split and decode here
            return decode(body, charset, limits);
        }
        throw new FormException(415, "form data in charset " + charset.name() + " is not supported");
    }

    /** The pairs of a query string, which is always UTF-8. */
    static List<FormFields.Field> query(String rawQuery, FormLimits limits) throws FormException {
        return FormFields.parseQuery(rawQuery, limits).asList();
    }

    private static byte[] readBounded(InputStream in, long max) throws IOException {
        byte[] buf = new byte[(int) Math.min(8192, max + 1)];
        int n = 0;
        while (true) {
            if (n == buf.length) {
                if (n > max) {
                    throw new FormException(413, "form data larger than " + max + " bytes");
                }
                buf = Arrays.copyOf(buf, (int) Math.min((long) n * 2, max + 1));
            }
            int r = in.read(buf, n, buf.length - n);
            if (r < 0) {
                break;
            }
            n += r;
        }
        if (n > max) {
            throw new FormException(413, "form data larger than " + max + " bytes");
        }
        return Arrays.copyOf(buf, n);
    }

    private static boolean isAsciiSuperset(Charset charset) {
        byte[] probe = "az&=+%09AZ".getBytes(charset);
        return Arrays.equals(probe, "az&=+%09AZ".getBytes(StandardCharsets.US_ASCII));
    }

    private static List<FormFields.Field> decode(byte[] b, Charset charset, FormLimits limits) throws FormException {
        List<FormFields.Field> fields = new ArrayList<>();
        int start = 0;
        while (start <= b.length) {
            int end = start;
            while (end < b.length && b[end] != '&') {
                end++;
            }
            if (end > start) {
                if (fields.size() == limits.maxFields()) {
                    throw new FormException(413, "more than " + limits.maxFields() + " form fields");
                }
                int eq = start;
                while (eq < end && b[eq] != '=') {
                    eq++;
                }
                if (eq - start > limits.maxNameSize() || (eq < end ? end - eq - 1 : 0) > limits.maxValueSize()) {
                    throw new FormException(413, "form field name or value over its size limit");
                }
                String name = unescape(b, start, eq, charset);
                String value = eq < end ? unescape(b, eq + 1, end, charset) : "";
                fields.add(new FormFields.Field(name, value));
            }
            start = end + 1;
        }
        return fields;
    }

    private static String unescape(byte[] b, int from, int to, Charset charset) throws FormException {
        byte[] out = new byte[to - from];
        int n = 0;
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c == '+') {
                out[n++] = ' ';
            } else if (c == '%') {
                int hi = i + 2 < to ? Character.digit(b[i + 1], 16) : -1;
                int lo = i + 2 < to ? Character.digit(b[i + 2], 16) : -1;
                if (hi < 0 || lo < 0) {
                    throw new FormException(400, "malformed percent-escape in form data");
                }
                out[n++] = (byte) (hi << 4 | lo);
                i += 2;
            } else {
                out[n++] = c;
            }
        }
        try {
            return charset.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(out, 0, n)).toString();
        } catch (CharacterCodingException e) {
            throw new FormException(400, "form data is not valid " + charset.name());
        }
    }
}
