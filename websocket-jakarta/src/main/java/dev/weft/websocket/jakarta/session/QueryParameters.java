package dev.weft.websocket.jakarta.session;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The parameters of a query string ({@code application/x-www-form-urlencoded}, UTF-8). */
public final class QueryParameters {

    /** Most parameters taken from one query; the engine bounds the query's length. */
    static final int MAX_PARAMETERS = 1000;

    private QueryParameters() {
    }

    /** The parameters of {@code rawQuery} (null: none), names in order, read-only. */
    public static Map<String, List<String>> parse(String rawQuery) {
        Map<String, List<String>> map = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return Map.of();
        }
        int count = 0;
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty() || ++count > MAX_PARAMETERS) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            map.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        map.replaceAll((k, v) -> List.copyOf(v));
        return java.util.Collections.unmodifiableMap(map);
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }
}
