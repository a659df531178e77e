package dev.weft.micronaut.http;

import io.micronaut.core.convert.ConversionService;
import io.micronaut.http.cookie.Cookie;
import io.micronaut.http.simple.cookies.SimpleCookies;

import java.util.List;

/**
 * The cookies a request carries, from its {@code Cookie} fields (RFC 6265 §4.2: {@code name=value} pairs
 * separated by {@code ;}). A pair without {@code =} or with an empty name is skipped; a value in double quotes
 * loses them. The first of two cookies of the same name wins, as browsers send the more specific first.
 */
final class RequestCookies {

    private RequestCookies() {
    }

    static SimpleCookies parse(List<String> fields, ConversionService conversionService) {
        SimpleCookies cookies = new SimpleCookies(conversionService);
        for (String field : fields) {
            int start = 0;
            int length = field.length();
            while (start < length) {
                int end = field.indexOf(';', start);
                if (end < 0) {
                    end = length;
                }
                add(cookies, field, start, end);
                start = end + 1;
            }
        }
        return cookies;
    }

    private static void add(SimpleCookies cookies, String field, int start, int end) {
        int equals = field.indexOf('=', start);
        if (equals < 0 || equals >= end) {
            return;
        }
        String name = field.substring(start, equals).strip();
        if (name.isEmpty() || cookies.contains(name)) {
            return;
        }
        String value = field.substring(equals + 1, end).strip();
        if (value.length() >= 2 && value.charAt(0) == '"' && value.charAt(value.length() - 1) == '"') {
            value = value.substring(1, value.length() - 1);
        }
        cookies.put(name, Cookie.of(name, value));
    }
}
