package dev.weft.httpserver.forms;

import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The name/value pairs of a query string or an {@code application/x-www-form-urlencoded} body, in order, names
 * repeatable. Immutable. Parsing is strict UTF-8 with {@code +} as a space; malformed input fails with a
 * {@link FormException} of status {@code 400}, input over a {@link FormLimits} limit with {@code 413}.
 */
public final class FormFields {

    /** One pair. */
    public record Field(String name, String value) {
    }

    private static final FormFields EMPTY = new FormFields(List.of());

    private final List<Field> fields;

    private FormFields(List<Field> fields) {
        this.fields = List.copyOf(fields);
    }

    /** The fields of a raw (still encoded) query string; {@code null} or empty gives no fields. */
    public static FormFields parseQuery(String rawQuery, FormLimits limits) throws FormException {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return EMPTY;
        }
        byte[] bytes = rawQuery.getBytes(StandardCharsets.UTF_8);
        return new FormFields(UrlEncodedDecoder.decode(bytes, bytes.length, StandardCharsets.UTF_8, limits));
    }

    /** The fields of the exchange's query string. */
    public static FormFields query(HttpExchange exchange, FormLimits limits) throws FormException {
        return parseQuery(exchange.getRequestURI().getRawQuery(), limits);
    }

    /**
     * The fields of the exchange's request body, which must be {@code application/x-www-form-urlencoded}
     * ({@code 415} otherwise). Reads the body (at most {@code maxTotalSize} plus one byte).
     */
    public static FormFields readForm(HttpExchange exchange, FormLimits limits) throws IOException {
        String type = exchange.getRequestHeaders().getFirst("Content-Type");
        String mediaType = type == null ? "" : type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (!mediaType.equals("application/x-www-form-urlencoded")) {
            throw new FormException(415, "expected application/x-www-form-urlencoded, got " + type);
        }
        String length = exchange.getRequestHeaders().getFirst("Content-Length");
        if (length != null && length.length() < 19 && Long.parseLong(length) > limits.maxTotalSize()) {
            throw FormException.tooLarge("form data larger than " + limits.maxTotalSize() + " bytes");
        }
        return readForm(exchange.getRequestBody(), limits);
    }

    /** The fields of an urlencoded UTF-8 body read from {@code in} to its end (not closed). */
    public static FormFields readForm(InputStream in, FormLimits limits) throws IOException {
        return readForm(in, StandardCharsets.UTF_8, limits);
    }

    /**
     * The fields of an urlencoded body read from {@code in} to its end (not closed), its percent-decoded bytes
     * in {@code charset} (as a servlet request's character encoding asks). The charset must encode ASCII as
     * ASCII, as urlencoded data is ASCII: another (UTF-16, UTF-32, EBCDIC) gets {@code 415}.
     */
    public static FormFields readForm(InputStream in, Charset charset, FormLimits limits) throws IOException {
        if (!encodesAsciiAsAscii(charset)) {
            throw new FormException(415, "form data in charset " + charset.name() + " is not supported");
        }
        long max = limits.maxTotalSize();
        byte[] buf = new byte[(int) Math.min(8192, max + 1)];
        int n = 0;
        while (true) {
            if (n == buf.length) {
                if (n > max) {
                    throw FormException.tooLarge("form data larger than " + max + " bytes");
                }
                buf = Arrays.copyOf(buf, (int) Math.min((long) n * 2, max + 1));
            }
            int r = in.read(buf, n, buf.length - n);
            if (r < 0) {
                break;
            }
            n += r;
        }
        return new FormFields(UrlEncodedDecoder.decode(buf, n, charset, limits));
    }

    private static boolean encodesAsciiAsAscii(Charset charset) {
        if (charset.equals(StandardCharsets.UTF_8) || charset.equals(StandardCharsets.ISO_8859_1)
                || charset.equals(StandardCharsets.US_ASCII)) {
            return true;
        }
        if (!charset.canEncode()) {
            return false;
        }
        String probe = "az&=+%09AZ";
        return Arrays.equals(probe.getBytes(charset), probe.getBytes(StandardCharsets.US_ASCII));
    }

    /** The first value of {@code name}. */
    public Optional<String> first(String name) {
        for (Field f : fields) {
            if (f.name().equals(name)) {
                return Optional.of(f.value());
            }
        }
        return Optional.empty();
    }

    /** Every value of {@code name}, in order (empty if none). */
    public List<String> all(String name) {
        List<String> values = new ArrayList<>();
        for (Field f : fields) {
            if (f.name().equals(name)) {
                values.add(f.value());
            }
        }
        return List.copyOf(values);
    }

    /** The distinct names, in order of first appearance. */
    public Set<String> names() {
        Set<String> names = new LinkedHashSet<>();
        fields.forEach(f -> names.add(f.name()));
        return names;
    }

    /** Every pair, in order. */
    public List<Field> asList() {
        return fields;
    }

    /** The number of pairs. */
    public int size() {
        return fields.size();
    }

    @Override
    public String toString() {
        return fields.toString();
    }
}
