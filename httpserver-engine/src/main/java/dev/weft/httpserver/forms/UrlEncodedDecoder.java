package dev.weft.httpserver.forms;

import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code application/x-www-form-urlencoded} parser (WHATWG URL §5.1), shared by query strings and form
 * bodies: {@code &}-separated pairs, empty pairs skipped, a pair without {@code =} has an empty value, {@code +}
 * is a space, {@code %XX} a byte; the bytes are decoded strictly in the given charset (UTF-8 unless a servlet
 * request says otherwise). Unlike the WHATWG parser, a malformed escape or malformed bytes are an error
 * ({@code 400}) rather than passed through. Stateless.
 */
final class UrlEncodedDecoder {

    private UrlEncodedDecoder() {
    }

    /** The pairs of {@code bytes[0, length)} in {@code charset}, checked against {@code limits}. */
    static List<FormFields.Field> decode(byte[] bytes, int length, Charset charset, FormLimits limits)
            throws FormException {
        if (length > limits.maxTotalSize()) {
            throw FormException.tooLarge("form data larger than " + limits.maxTotalSize() + " bytes");
        }
        List<FormFields.Field> fields = new ArrayList<>();
        int start = 0;
        while (start <= length) {
            int end = start;
            while (end < length && bytes[end] != '&') {
                end++;
            }
            if (end > start) {
                if (fields.size() == limits.maxFields()) {
                    throw FormException.tooLarge("more than " + limits.maxFields() + " form fields");
                }
                int eq = start;
                while (eq < end && bytes[eq] != '=') {
                    eq++;
                }
                int nameLength = eq - start;
                int valueLength = eq < end ? end - eq - 1 : 0;
                if (nameLength > limits.maxNameSize()) {
                    throw FormException.tooLarge("form field name longer than " + limits.maxNameSize() + " bytes");
                }
                if (valueLength > limits.maxValueSize()) {
                    throw FormException.tooLarge("form field value longer than " + limits.maxValueSize() + " bytes");
                }
                String name = PercentEncoding.decode(bytes, start, eq, true, charset);
                String value = eq < end ? PercentEncoding.decode(bytes, eq + 1, end, true, charset) : "";
                fields.add(new FormFields.Field(name, value));
            }
            start = end + 1;
        }
        return fields;
    }
}
