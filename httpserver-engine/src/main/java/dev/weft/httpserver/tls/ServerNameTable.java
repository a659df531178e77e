package dev.weft.httpserver.tls;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Values looked up by TLS server name: exact host names and {@code *.example.com} wildcards (which match one
 * more leading label: {@code a.example.com}, neither {@code example.com} nor {@code a.b.example.com}), compared
 * without regard to case or a trailing dot. An exact name wins over a wildcard. Immutable.
 *
 * @param <T> the value kept for each name
 */
public final class ServerNameTable<T> {

    private static final String WILDCARD = "*.";

    private final Map<String, T> exact;
    private final Map<String, T> wildcards;

    private ServerNameTable(Map<String, T> exact, Map<String, T> wildcards) {
        this.exact = Map.copyOf(exact);
        this.wildcards = Map.copyOf(wildcards);
    }

    /**
     * The table of {@code entries}, in order.
     *
     * @throws IllegalArgumentException if a name is not a host name or wildcard, or two entries share one
     */
    public static <T> ServerNameTable<T> of(List<Map.Entry<String, T>> entries) {
        Map<String, T> exact = new LinkedHashMap<>();
        Map<String, T> wildcards = new LinkedHashMap<>();
        for (Map.Entry<String, T> e : entries) {
            String name = normalize(e.getKey());
            boolean wildcard = name.startsWith(WILDCARD);
            String key = wildcard ? name.substring(WILDCARD.length()) : name;
            checkHostName(e.getKey(), key);
            T previous = (wildcard ? wildcards : exact).putIfAbsent(key, e.getValue());
            if (previous != null) {
                throw new IllegalArgumentException("server name given twice: " + e.getKey());
            }
        }
        return new ServerNameTable<>(exact, wildcards);
    }

    /** The value for {@code serverName}, or {@code null} if no name matches it. */
    public T find(String serverName) {
        String name = normalize(serverName);
        T value = exact.get(name);
        if (value != null) {
            return value;
        }
        int dot = name.indexOf('.');
        return dot > 0 ? wildcards.get(name.substring(dot + 1)) : null;
    }

    private static String normalize(String name) {
        String lower = name.strip().toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
    }

    private static void checkHostName(String given, String name) {
        if (name.isEmpty() || name.startsWith(".") || name.endsWith(".") || name.contains("..")) {
            throw new IllegalArgumentException("not a host name or *.domain wildcard: '" + given + "'");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_')) {
                throw new IllegalArgumentException("not a host name or *.domain wildcard (use the ASCII "
                        + "form of an international name): '" + given + "'");
            }
        }
    }
}
