package dev.weft.micronaut.http;

import io.micronaut.http.cookie.Cookie;
import io.micronaut.http.cookie.DefaultServerCookieEncoder;
import io.micronaut.http.cookie.ServerCookieEncoder;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code Set-Cookie} values of an application served by Weft, as on Netty: Micronaut's own encoder writes
 * them (attributes in the same order, {@code Expires} in the same format), with the one attribute it spells
 * differently from Netty's encoder, {@code HttpOnly}, written {@code HTTPOnly} as Netty does. Attribute names
 * are case-insensitive for clients (RFC 6265 §5.2); this keeps responses identical to Netty's whichever encoder
 * Micronaut's service loader finds first (Netty's is on the class path with Micronaut's Netty HTTP client).
 */
public final class WeftServerCookieEncoder implements ServerCookieEncoder {

    private static final String HTTP_ONLY = "; HttpOnly";
    private static final String NETTY_HTTP_ONLY = "; HTTPOnly";

    private final ServerCookieEncoder encoder = new DefaultServerCookieEncoder();

    @Override
    public List<String> encode(Cookie... cookies) {
        List<String> encoded = encoder.encode(cookies);
        List<String> values = new ArrayList<>(encoded.size());
        for (String value : encoded) {
            values.add(nettySpelling(value));
        }
        return values;
    }

    /** The value with its {@code HttpOnly} attribute (never inside a name or value: they exclude ';') renamed. */
    private static String nettySpelling(String value) {
        int at = value.indexOf(HTTP_ONLY);
        while (at >= 0) {
            int end = at + HTTP_ONLY.length();
            if (end == value.length() || value.charAt(end) == ';') {
                return value.substring(0, at) + NETTY_HTTP_ONLY + value.substring(end);
            }
            at = value.indexOf(HTTP_ONLY, end);
        }
        return value;
    }
}
