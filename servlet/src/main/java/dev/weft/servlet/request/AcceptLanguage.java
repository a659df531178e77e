package dev.weft.servlet.request;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The locales of {@code Accept-Language} fields (RFC 9110 §12.5.4) in order of preference: by quality value,
 * highest first, ties in the order sent; {@code q=0} ranges and {@code *} are left out, malformed ranges skipped.
 * Stateless.
 */
final class AcceptLanguage {

    private AcceptLanguage() {
    }

    private record Weighted(Locale locale, double q, int order) {
    }

    /** The preferred locales; empty when no usable range was sent. */
    static List<Locale> parse(List<String> fields) {
        List<Weighted> ranges = new ArrayList<>();
        int order = 0;
        for (String field : fields) {
            for (String element : field.split(",")) {
                String[] parts = element.split(";");
                String tag = parts[0].strip();
                if (tag.isEmpty() || tag.equals("*") || !isLanguageRange(tag)) {
                    continue;
                }
                double q = 1;
                for (int i = 1; i < parts.length; i++) {
                    String p = parts[i].strip();
                    if (p.startsWith("q=") || p.startsWith("Q=")) {
                        try {
                            q = Double.parseDouble(p.substring(2));
                        } catch (NumberFormatException e) {
                            q = -1;
                        }
                    }
                }
                if (q > 0 && q <= 1) {
                    ranges.add(new Weighted(Locale.forLanguageTag(tag), q, order++));
                }
            }
        }
        ranges.sort((a, b) -> a.q() != b.q() ? Double.compare(b.q(), a.q()) : Integer.compare(a.order(), b.order()));
        List<Locale> locales = new ArrayList<>(ranges.size());
        for (Weighted w : ranges) {
            locales.add(w.locale());
        }
        return locales;
    }

    /** {@code 1*8ALPHA *("-" 1*8alphanum)} (RFC 4647 §2.1). */
    private static boolean isLanguageRange(String tag) {
        int len = 0;
        boolean first = true;
        for (int i = 0; i <= tag.length(); i++) {
            char c = i < tag.length() ? tag.charAt(i) : '-';
            if (c == '-') {
                if (len == 0 || len > 8) {
                    return false;
                }
                len = 0;
                first = false;
            } else if (c < 128 && (Character.isLetter(c) || !first && Character.isDigit(c))) {
                len++;
            } else {
                return false;
            }
        }
        return true;
    }
}
