package dev.weft.servlet.response;

import java.util.Locale;

/**
 * A {@code Content-Type} value split into what comes before the {@code charset} parameter and the charset
 * itself, the way {@code ServletResponse.setContentType} must treat it. Immutable.
 *
 * @param withoutCharset the media type and its other parameters
 * @param charset        the {@code charset} parameter's value (unquoted), or null
 */
public record ContentType(String withoutCharset, String charset) {

    /** Splits {@code value}; parameters other than {@code charset} are kept as written. */
    public static ContentType parse(String value) {
        String charset = null;
        StringBuilder rest = new StringBuilder(value.length());
        int i = 0;
        int n = value.length();
        int semi = indexOfUnquoted(value, ';', 0);
        rest.append((semi < 0 ? value : value.substring(0, semi)).strip());
        i = semi;
        while (i >= 0 && i < n) {
            int next = indexOfUnquoted(value, ';', i + 1);
            String param = (next < 0 ? value.substring(i + 1) : value.substring(i + 1, next)).strip();
            int eq = param.indexOf('=');
            if (eq > 0 && param.substring(0, eq).strip().toLowerCase(Locale.ROOT).equals("charset")) {
                String v = param.substring(eq + 1).strip();
                if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
                    v = v.substring(1, v.length() - 1);
                }
                charset = v.isEmpty() ? null : v;
            } else if (!param.isEmpty()) {
                rest.append("; ").append(param);
            }
            i = next;
        }
        return new ContentType(rest.toString(), charset);
    }

    private static int indexOfUnquoted(String s, char c, int from) {
        boolean quoted = false;
        for (int i = from; i < s.length(); i++) {
            char x = s.charAt(i);
            if (x == '"') {
                quoted = !quoted;
            } else if (x == '\\' && quoted) {
                i++;
            } else if (x == c && !quoted) {
                return i;
            }
        }
        return -1;
    }
}
