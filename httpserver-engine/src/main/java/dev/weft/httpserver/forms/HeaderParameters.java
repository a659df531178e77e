package dev.weft.httpserver.forms;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A header value of the form {@code value *( OWS ";" OWS name "=" ( token / quoted-string ) )}, as
 * {@code Content-Type} (RFC 9110 §8.3.1) and {@code Content-Disposition} (RFC 6266 §4.1) carry it; parameter
 * names lower-cased; a duplicate parameter is an error (it makes the meaning ambiguous). Immutable.
 */
record HeaderParameters(String value, Map<String, String> parameters) {

    /** Parses {@code header}. */
    static HeaderParameters parse(String header) throws FormException {
        int semi = header.indexOf(';');
        String value = (semi < 0 ? header : header.substring(0, semi)).strip().toLowerCase(Locale.ROOT);
        Map<String, String> params = new HashMap<>();
        int i = semi < 0 ? header.length() : semi;
        int n = header.length();
        while (i < n) {
            i = skipSpace(header, i + 1); // past ';'
            if (i >= n) {
                break; // trailing ';'
            }
            int eq = header.indexOf('=', i);
            if (eq < 0) {
                throw FormException.malformed("parameter without '=' in: " + header);
            }
            String name = header.substring(i, eq).strip().toLowerCase(Locale.ROOT);
            if (name.isEmpty() || !isToken(name)) {
                throw FormException.malformed("bad parameter name in: " + header);
            }
            i = skipSpace(header, eq + 1);
            StringBuilder v = new StringBuilder();
            if (i < n && header.charAt(i) == '"') {
                // quoted-string with quoted-pair (RFC 9110 §5.6.4)
                i++;
                while (true) {
                    if (i >= n) {
                        throw FormException.malformed("unterminated quoted string in: " + header);
                    }
                    char c = header.charAt(i++);
                    if (c == '"') {
                        break;
                    }
                    if (c == '\\' && i < n) {
                        c = header.charAt(i++);
                    }
                    v.append(c);
                }
                i = skipSpace(header, i);
            } else {
                int start = i;
                while (i < n && header.charAt(i) != ';') {
                    i++;
                }
                v.append(header, start, i);
                String token = v.toString().strip();
                v.setLength(0);
                v.append(token);
            }
            if (i < n && header.charAt(i) != ';') {
                throw FormException.malformed("junk after parameter " + name + " in: " + header);
            }
            if (params.put(name, v.toString()) != null) {
                throw FormException.malformed("duplicate parameter " + name + " in: " + header);
            }
        }
        return new HeaderParameters(value, Map.copyOf(params));
    }

    /** A parameter's value, or null. */
    String get(String name) {
        return parameters.get(name);
    }

    /**
     * An RFC 8187 ext-value ({@code charset'language'pct-encoded}, UTF-8 or ISO-8859-1), or null when it is not
     * one we can decode.
     */
    static String decodeExtValue(String ext) {
        int q1 = ext.indexOf('\'');
        int q2 = q1 < 0 ? -1 : ext.indexOf('\'', q1 + 1);
        if (q2 < 0) {
            return null;
        }
        String charsetName = ext.substring(0, q1).toLowerCase(Locale.ROOT);
        Charset charset = switch (charsetName) {
            case "utf-8" -> StandardCharsets.UTF_8;
            case "iso-8859-1" -> StandardCharsets.ISO_8859_1;
            default -> null;
        };
        if (charset == null) {
            return null;
        }
        String encoded = ext.substring(q2 + 1);
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                return null;
            }
        }
        byte[] bytes = encoded.getBytes(StandardCharsets.US_ASCII);
        try {
            return PercentEncoding.decode(bytes, 0, bytes.length, false, charset);
        } catch (FormException e) {
            return null;
        }
    }

    private static int skipSpace(String s, int i) {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    static boolean isToken(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x20 || c >= 0x7f || "()<>@,;:\\\"/[]?={}".indexOf(c) >= 0) {
                return false;
            }
        }
        return !s.isEmpty();
    }
}
