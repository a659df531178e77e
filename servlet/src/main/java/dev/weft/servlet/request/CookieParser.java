package dev.weft.servlet.request;

import jakarta.servlet.http.Cookie;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads {@code Cookie} request fields (RFC 6265 §4.2.1: {@code name=value} pairs separated by {@code ;}), every
 * field when a client sends several (HTTP/2 may split them). A value may be in double quotes, which are kept
 * off. A pair without {@code =}, or with a name the {@link Cookie} class refuses, is skipped rather than failing
 * the request. Stateless.
 */
final class CookieParser {

    private CookieParser() {
    }

    static Cookie[] parse(List<String> fields) {
        List<Cookie> cookies = new ArrayList<>();
        for (String field : fields) {
            int i = 0;
            int n = field.length();
            while (i < n) {
                int end = field.indexOf(';', i);
                if (end < 0) {
                    end = n;
                }
                String pair = field.substring(i, end).strip();
                i = end + 1;
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    continue;
                }
                String name = pair.substring(0, eq).strip();
                String value = pair.substring(eq + 1).strip();
                if (value.length() >= 2 && value.charAt(0) == '"' && value.charAt(value.length() - 1) == '"') {
                    value = value.substring(1, value.length() - 1);
                }
                if (name.startsWith("$")) {
                    continue; // RFC 2109 attributes ($Version, $Path) are not cookies
                }
                try {
                    cookies.add(new Cookie(name, value));
                } catch (IllegalArgumentException e) {
                    // a name Cookie refuses (a token character missing, a reserved name): skipped
                }
            }
        }
        return cookies.toArray(new Cookie[0]);
    }
}
