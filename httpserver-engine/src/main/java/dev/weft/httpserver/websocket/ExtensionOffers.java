package dev.weft.httpserver.websocket;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code Sec-WebSocket-Extensions} (RFC 6455 §9.1): a comma-separated list of extensions, each a
 * token with {@code ;}-separated parameters whose values are tokens or quoted strings. Values come back
 * unquoted.
 */
final class ExtensionOffers {

    /** One offered parameter; {@code value} is null when it had none. */
    record Param(String name, String value) {
    }

    /** One offered extension. */
    record Offer(String name, List<Param> params) {
    }

    private final String s;
    private int i;

    private ExtensionOffers(String s) {
        this.s = s;
    }

    /**
     * The offers of all field lines, in order. An element that breaks the grammar is dropped (so it is
     * declined) and parsing continues with the next element.
     */
    static List<Offer> parse(List<String> fieldValues) {
        List<Offer> offers = new ArrayList<>();
        if (fieldValues == null) {
            return offers;
        }
        for (String v : fieldValues) {
            new ExtensionOffers(v).elements(offers);
        }
        return offers;
    }

    private void elements(List<Offer> into) {
        while (i < s.length()) {
            int start = i;
            Offer o = element();
            if (o != null) {
                into.add(o);
            } else {
                i = start;
                skipElement();
            }
            ws();
            if (i < s.length() && s.charAt(i) == ',') {
                i++;
            }
        }
    }

    /** One extension with its parameters, up to (not including) the next top-level comma; null if malformed. */
    private Offer element() {
        ws();
        String name = token();
        if (name == null) {
            return null;
        }
        List<Param> params = new ArrayList<>();
        ws();
        while (i < s.length() && s.charAt(i) == ';') {
            i++;
            ws();
            String p = token();
            if (p == null) {
                return null;
            }
            ws();
            String value = null;
            if (i < s.length() && s.charAt(i) == '=') {
                i++;
                ws();
                value = i < s.length() && s.charAt(i) == '"' ? quoted() : token();
                // §9.1: a quoted value must still be a token once unescaped.
                if (value == null || !isToken(value)) {
                    return null;
                }
                ws();
            }
            params.add(new Param(p, value));
        }
        if (i < s.length() && s.charAt(i) != ',') {
            return null;
        }
        return new Offer(name, List.copyOf(params));
    }

    private void skipElement() {
        boolean quoted = false;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (quoted) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    quoted = false;
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                return;
            }
            i++;
        }
    }

    private String token() {
        int start = i;
        while (i < s.length() && isTokenChar(s.charAt(i))) {
            i++;
        }
        return i == start ? null : s.substring(start, i);
    }

    private String quoted() {
        StringBuilder b = new StringBuilder();
        i++; // opening quote
        while (i < s.length()) {
            char c = s.charAt(i++);
            if (c == '"') {
                return b.toString();
            }
            if (c == '\\') {
                if (i == s.length()) {
                    return null;
                }
                c = s.charAt(i++);
            }
            b.append(c);
        }
        return null;
    }

    private void ws() {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
    }

    private static boolean isToken(String v) {
        if (v.isEmpty()) {
            return false;
        }
        for (int k = 0; k < v.length(); k++) {
            if (!isTokenChar(v.charAt(k))) {
                return false;
            }
        }
        return true;
    }

    /** RFC 9110 §5.6.2 tchar. */
    private static boolean isTokenChar(char c) {
        return c < 0x7f && c > 0x20 && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
    }
}
