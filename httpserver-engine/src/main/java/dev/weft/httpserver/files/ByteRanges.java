package dev.weft.httpserver.files;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The {@code Range} header of a GET (RFC 9110 §14.1.2, §14.2): parsed, checked against the representation's
 * length and coalesced. Stateless.
 */
final class ByteRanges {

    /** One satisfiable range, both ends inclusive. */
    record Range(long first, long last) {
        long length() {
            return last - first + 1;
        }
    }

    /** What a {@code Range} header asks for. */
    sealed interface Result permits Ignore, Unsatisfiable, Satisfiable {
    }

    /** Serve the whole representation (no header, another unit, invalid syntax, or too many ranges). */
    record Ignore() implements Result {
    }

    /** {@code 416}: no range overlaps the representation. */
    record Unsatisfiable() implements Result {
    }

    /** {@code 206}: these ranges, ascending, not overlapping or adjacent. */
    record Satisfiable(List<Range> ranges) implements Result {
    }

    private static final Result IGNORE = new Ignore();
    private static final int MAX_DIGITS = 18;

    private ByteRanges() {
    }

    /**
     * The ranges {@code header} selects from a representation of {@code length} bytes.
     *
     * @param maxRanges more range specs than this are answered with the whole representation (§14.2 lets a
     *                  server ignore a range set with many small or overlapping ranges)
     */
    static Result parse(String header, long length, int maxRanges) {
        if (header == null) {
            return IGNORE;
        }
        String v = header.strip();
        int eq = v.indexOf('=');
        // §14.1: range units are case-insensitive; an unknown unit is ignored (§14.2)
        if (eq < 0 || !v.substring(0, eq).strip().equalsIgnoreCase("bytes")) {
            return IGNORE;
        }
        List<Range> ranges = new ArrayList<>();
        int specs = 0;
        boolean anySuffix = false;
        for (String element : v.substring(eq + 1).split(",", -1)) {
            String spec = element.strip();
            if (spec.isEmpty()) {
                continue; // §5.6.1: empty list elements are allowed and not counted
            }
            if (++specs > maxRanges) {
                return IGNORE;
            }
            int dash = spec.indexOf('-');
            if (dash < 0) {
                return IGNORE;
            }
            String a = spec.substring(0, dash);
            String b = spec.substring(dash + 1);
            if (a.isEmpty()) {
                // suffix-range: "-" suffix-length
                long suffix = number(b);
                if (suffix < 0) {
                    return IGNORE;
                }
                anySuffix = true;
                if (suffix > 0 && length > 0) {
                    ranges.add(new Range(Math.max(0, length - suffix), length - 1));
                }
                continue;
            }
            long first = number(a);
            long last = b.isEmpty() ? Long.MAX_VALUE : number(b);
            // §14.1.1: invalid if last-pos is present and less than first-pos
            if (first < 0 || last < 0 || last < first) {
                return IGNORE;
            }
            // §14.1.1: satisfiable if first-pos is less than the current length
            if (first < length) {
                ranges.add(new Range(first, Math.min(last, length - 1)));
            }
        }
        if (specs == 0) {
            return IGNORE;
        }
        if (ranges.isEmpty()) {
            // an empty representation cannot express a suffix range's answer: serve it whole (200)
            return length == 0 && anySuffix ? IGNORE : new Unsatisfiable();
        }
        return new Satisfiable(coalesce(ranges));
    }

    /** Sorted, with overlapping and adjacent ranges merged (a server MAY coalesce them, §14.2). */
    private static List<Range> coalesce(List<Range> ranges) {
        ranges.sort(Comparator.comparingLong(Range::first));
        List<Range> out = new ArrayList<>();
        Range current = ranges.get(0);
        for (int i = 1; i < ranges.size(); i++) {
            Range r = ranges.get(i);
            if (r.first() <= current.last() + 1) {
                current = new Range(current.first(), Math.max(current.last(), r.last()));
            } else {
                out.add(current);
                current = r;
            }
        }
        out.add(current);
        return List.copyOf(out);
    }

    /** A non-negative decimal, saturated at 18 digits' worth; -1 if not all digits or empty. */
    private static long number(String s) {
        if (s.isEmpty()) {
            return -1;
        }
        long n = 0;
        int digits = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            if (n > 0 || c != '0') {
                digits++;
            }
            if (digits > MAX_DIGITS) {
                n = Long.MAX_VALUE / 2; // beyond any file: saturate
            } else {
                n = n * 10 + (c - '0');
            }
        }
        return n;
    }
}
