package dev.weft.servlet.response;

import jakarta.servlet.http.Cookie;

import java.util.Map;

/**
 * A {@link Cookie} as a {@code Set-Cookie} field value (RFC 6265 §4.1): {@code name=value}, then each attribute
 * the cookie carries in the order it holds them, valueless ones ({@code Secure}, {@code HttpOnly},
 * {@code Partitioned}) by name alone, and {@code Expires} beside {@code Max-Age} for older clients. A value or
 * attribute that would break the field (a control character, a {@code ;}) is refused rather than sent. Stateless.
 */
public final class SetCookieHeader {

    private SetCookieHeader() {
    }

    /**
     * The field value for {@code cookie}, with {@code sameSite} added when the cookie has no {@code SameSite}
     * attribute of its own and {@code sameSite} is not null.
     *
     * @throws IllegalArgumentException for a value or attribute that cannot be sent
     */
    public static String format(Cookie cookie, String sameSite) {
        StringBuilder b = new StringBuilder(64);
        b.append(cookie.getName()).append('=');
        String value = cookie.getValue();
        if (value != null) {
            checkValue(value, cookie.getName());
            b.append(value);
        }
        boolean hasSameSite = false;
        for (Map.Entry<String, String> e : cookie.getAttributes().entrySet()) {
            String name = e.getKey();
            String v = e.getValue();
            checkAttribute(name, v);
            b.append("; ").append(name);
            if (!v.isEmpty()) {
                b.append('=').append(v);
            }
            if (name.equalsIgnoreCase("Max-Age")) {
                int maxAge = Integer.parseInt(v);
                b.append("; Expires=").append(maxAge == 0 ? "Thu, 01 Jan 1970 00:00:00 GMT"
                        : HttpDates.format(System.currentTimeMillis() + maxAge * 1000L));
            }
            hasSameSite |= name.equalsIgnoreCase("SameSite");
        }
        if (!hasSameSite && sameSite != null) {
            checkAttribute("SameSite", sameSite);
            b.append("; SameSite=").append(sameSite);
        }
        return b.toString();
    }

    /** RFC 6265 cookie-value: cookie-octets, optionally in double quotes. */
    private static void checkValue(String value, String name) {
        int start = 0;
        int end = value.length();
        if (end >= 2 && value.charAt(0) == '"' && value.charAt(end - 1) == '"') {
            start = 1;
            end--;
        }
        for (int i = start; i < end; i++) {
            char c = value.charAt(i);
            if (c < 0x21 || c > 0x7e || c == '"' || c == ',' || c == ';' || c == '\\') {
                throw new IllegalArgumentException("cookie " + name + " has a character not allowed in a cookie value");
            }
        }
    }

    private static void checkAttribute(String name, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7f || c == ';' || c > 0xff) {
                throw new IllegalArgumentException("cookie attribute " + name + " has a character not allowed there");
            }
        }
    }
}
