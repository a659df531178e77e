package dev.weft.httpserver.http2;

import dev.weft.httpserver.core.RequestHeaders;

import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Converts field names between the API's {@code Headers} key form ({@code Content-type}) and HTTP/2's lower
 * case ({@code content-type}). Results are shared per name, so the same names arrive as the same strings
 * with their hash codes cached; the caches stop growing at a fixed size, as names are client-controlled.
 */
final class FieldNames {

    private static final int MAX_CACHED = 2048;
    private static final ConcurrentHashMap<String, String> LOWER = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<String, String> KEY_FORM = new ConcurrentHashMap<>();

    private FieldNames() {
    }

    /** The HTTP/2 form of a {@code Headers} key. */
    static String lowerCase(String key) {
        String lower = LOWER.get(key);
        if (lower == null) {
            lower = key.toLowerCase(Locale.ROOT);
            if (LOWER.size() < MAX_CACHED) {
                LOWER.putIfAbsent(key, lower);
            }
        }
        return lower;
    }

    /** The {@code Headers} key form of a valid lower-case HTTP/2 name: first character upper case. */
    static String keyForm(String name) {
        String key = KEY_FORM.get(name);
        if (key == null) {
            key = RequestHeaders.normalize(name);
            if (KEY_FORM.size() < MAX_CACHED) {
                KEY_FORM.putIfAbsent(name, key);
            }
        }
        return key;
    }
}
