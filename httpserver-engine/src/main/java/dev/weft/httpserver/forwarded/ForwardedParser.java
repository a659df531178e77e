package dev.weft.httpserver.forwarded;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parses the {@code Forwarded} field (RFC 7239 §4): a comma-separated list of elements, each
 * {@code ;}-separated {@code name=value} pairs whose value is a token or a quoted string. Holds no state.
 */
final class ForwardedParser {

    /** One element: what one proxy saw of the request it forwarded; a parameter it did not send is null. */
    record Element(String forNode, String proto, String host, String by) {
    }

    private ForwardedParser() {
    }

    /**
     * The elements of the field's lines joined as one list, left (the client's side) to right; {@code null}
     * when the field is malformed, repeats a parameter within an element, or has more than {@code maxHops}
     * elements.
     */
    static List<Element> parse(List<String> lines, int maxHops) {
        List<Element> out = new ArrayList<>();
        for (String line : lines) {
            if (!parseLine(line, out, maxHops)) {
                return null;
            }
        }
        return out.isEmpty() ? null : out;
    }

    private static boolean parseLine(String s, List<Element> out, int maxHops) {
        int i = 0;
        int n = s.length();
        String[] params = new String[4]; // for, proto, host, by
        boolean empty = true;
        while (true) {
            i = skipSpace(s, i);
            if (i < n && s.charAt(i) != ',' && s.charAt(i) != ';') {
                int nameEnd = token(s, i);
                if (nameEnd == i || nameEnd >= n || s.charAt(nameEnd) != '=') {
                    return false;
                }
                String name = s.substring(i, nameEnd).toLowerCase(Locale.ROOT);
                i = nameEnd + 1;
                StringBuilder value = new StringBuilder();
                if (i < n && s.charAt(i) == '"') {
                    i = quoted(s, i + 1, value);
                    if (i < 0) {
                        return false;
                    }
                } else {
                    int end = token(s, i);
                    if (end == i) {
                        return false;
                    }
                    value.append(s, i, end);
                    i = end;
                }
                int slot = switch (name) {
                    case "for" -> 0;
                    case "proto" -> 1;
                    case "host" -> 2;
                    case "by" -> 3;
                    default -> -1; // an extension: allowed and ignored
                };
                if (slot >= 0) {
                    if (params[slot] != null) {
                        return false;
                    }
                    params[slot] = value.toString();
                }
                empty = false;
                i = skipSpace(s, i);
            }
            if (i >= n || s.charAt(i) == ',') {
                if (!empty) {
                    if (out.size() == maxHops) {
                        return false;
                    }
                    out.add(new Element(params[0], params[1], params[2], params[3]));
                }
                if (i >= n) {
                    return true;
                }
                params = new String[4];
                empty = true;
                i++;
            } else if (s.charAt(i) == ';') {
                i++;
            } else {
                return false;
            }
        }
    }

    /** Index after the quoted string's closing quote, its content appended unescaped; -1 if unterminated. */
    private static int quoted(String s, int i, StringBuilder value) {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '"') {
                return i + 1;
            }
            if (c == '\\') {
                if (++i >= s.length()) {
                    return -1;
                }
                c = s.charAt(i);
            }
            if (c < 0x20 && c != '\t' || c == 0x7f) {
                return -1;
            }
            value.append(c);
            i++;
        }
        return -1;
    }

    private static int token(String s, int i) {
        while (i < s.length() && isTokenChar(s.charAt(i))) {
            i++;
        }
        return i;
    }

    /** RFC 9110 tchar. */
    static boolean isTokenChar(char c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    private static int skipSpace(String s, int i) {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }
}
