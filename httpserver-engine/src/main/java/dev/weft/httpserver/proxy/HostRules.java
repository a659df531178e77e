package dev.weft.httpserver.proxy;

import dev.weft.httpserver.net.AddressRange;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The parsed {@link ProxyConfig#allowedHosts()}: exact names, {@code *.suffix} patterns and address blocks.
 * Immutable.
 */
final class HostRules {

    private final Set<String> names;
    private final List<String> suffixes;
    private final List<AddressRange> ranges;

    private HostRules(Set<String> names, List<String> suffixes, List<AddressRange> ranges) {
        this.names = names;
        this.suffixes = suffixes;
        this.ranges = ranges;
    }

    /** @throws IllegalArgumentException for an entry that is none of the three forms */
    static HostRules parse(List<String> patterns) {
        Set<String> names = new HashSet<>();
        List<String> suffixes = new ArrayList<>();
        List<AddressRange> ranges = new ArrayList<>();
        for (String raw : patterns) {
            if (raw == null || raw.isBlank()) {
                throw new IllegalArgumentException("allowedHosts: empty entry");
            }
            String p = raw.strip().toLowerCase(Locale.ROOT);
            String literal = p.startsWith("[") && p.endsWith("]") ? p.substring(1, p.length() - 1) : p;
            int slash = literal.indexOf('/');
            if (AddressRange.isLiteral(slash < 0 ? literal : literal.substring(0, slash))) {
                ranges.add(AddressRange.parse(literal));
            } else if (p.startsWith("*.") && isName(p.substring(2))) {
                suffixes.add(p.substring(1));
            } else if (isName(p)) {
                names.add(normalize(p));
            } else {
                throw new IllegalArgumentException("allowedHosts: not a name, *.suffix or address block: " + raw);
            }
        }
        return new HostRules(Set.copyOf(names), List.copyOf(suffixes), List.copyOf(ranges));
    }

    private static boolean isName(String s) {
        if (s.isEmpty() || s.length() > 253) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_')) {
                return false;
            }
        }
        return true;
    }

    /** Lower case, without a trailing dot. */
    static String normalize(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }

    /** Whether there are no rules at all (every host may be requested). */
    boolean isEmpty() {
        return names.isEmpty() && suffixes.isEmpty() && ranges.isEmpty();
    }

    /** Whether the requested name (normalised) is allowed by a name or suffix entry. */
    boolean allowsName(String host) {
        if (names.contains(host)) {
            return true;
        }
        for (String s : suffixes) {
            if (host.endsWith(s) && host.length() > s.length()) {
                return true;
            }
        }
        return false;
    }

    /** Whether an address entry covers {@code address}. */
    boolean allowsAddress(InetAddress address) {
        for (AddressRange r : ranges) {
            if (r.contains(address)) {
                return true;
            }
        }
        return false;
    }
}
