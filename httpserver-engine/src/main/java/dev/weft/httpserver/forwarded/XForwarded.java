package dev.weft.httpserver.forwarded;

import com.sun.net.httpserver.Headers;
import dev.weft.httpserver.net.AddressSet;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The de-facto {@code X-Forwarded-For}, {@code -Proto}, {@code -Host}, {@code -Port} and {@code -Prefix} fields of
 * one request, read into a {@link ClientOrigin}. A list field's values line up with {@code X-Forwarded-For}'s
 * when each proxy appended one; a single value is the client's.
 */
final class XForwarded {

    private static final String FOR = "X-Forwarded-For";
    private static final String PROTO = "X-Forwarded-Proto";
    private static final String HOST = "X-Forwarded-Host";
    private static final String PORT = "X-Forwarded-Port";
    private static final String PREFIX = "X-Forwarded-Prefix";

    private final Headers headers;
    private final AddressSet trusted;

    XForwarded(Headers headers, AddressSet trusted) {
        this.headers = headers;
        this.trusted = trusted;
    }

    /** Whether the request has any of the fields. */
    static boolean present(Headers headers) {
        return headers.containsKey(FOR) || headers.containsKey(PROTO) || headers.containsKey(HOST)
                || headers.containsKey(PORT) || headers.containsKey(PREFIX);
    }

    /**
     * The origin the fields give.
     *
     * @throws IllegalArgumentException if one is malformed or beyond the limits
     */
    ClientOrigin resolve(ClientOrigin direct) {
        List<String> chain = values(FOR);
        InetSocketAddress client = direct.remoteAddress();
        int at = -1;
        for (int i = chain.size() - 1; i >= 0; i--) {
            InetSocketAddress node = ForwardedNode.parse(chain.get(i));
            if (node == null) {
                throw new IllegalArgumentException("malformed " + FOR + " entry: " + chain.get(i));
            }
            client = node;
            at = i;
            if (!trusted.contains(node.isUnresolved() ? null : node.getAddress())) {
                break;
            }
        }
        String proto = pick(values(PROTO), at, chain.size());
        String host = pick(values(HOST), at, chain.size());
        String port = pick(values(PORT), at, chain.size());
        String scheme = proto == null ? direct.scheme() : OriginResolver.scheme(proto);
        String authority = host == null ? null : OriginResolver.authority(host);
        if (port != null) {
            authority = withPort(authority != null ? authority : headers.getFirst("Host"), port(port));
        }
        return new ClientOrigin(client, scheme, authority, prefix(), true);
    }

    /** The field's comma-separated values over all its lines, each stripped; empty when absent. */
    private List<String> values(String name) {
        List<String> lines = headers.get(name);
        if (lines == null) {
            return List.of();
        }
        OriginResolver.checkLength(lines, name);
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            for (String v : line.split(",", -1)) {
                String s = v.strip();
                if (s.isEmpty()) {
                    throw new IllegalArgumentException("empty entry in " + name);
                }
                if (out.size() == OriginResolver.MAX_HOPS) {
                    throw new IllegalArgumentException(name + " has more than " + OriginResolver.MAX_HOPS + " entries");
                }
                out.add(s);
            }
        }
        return out;
    }

    /** The value for the client at index {@code at} of a chain of {@code hops}: lined up, else the first. */
    private static String pick(List<String> values, int at, int hops) {
        if (values.isEmpty()) {
            return null;
        }
        return values.size() == hops && at >= 0 ? values.get(at) : values.get(0);
    }

    private static int port(String s) {
        if (s.isEmpty() || s.length() > 5 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("malformed " + PORT + ": " + s);
        }
        int p = Integer.parseInt(s);
        if (p < 1 || p > 65535) {
            throw new IllegalArgumentException(PORT + " out of range: " + s);
        }
        return p;
    }

    /** {@code authority} with its port replaced by (or given) {@code port}; null when there is no host. */
    private static String withPort(String authority, int port) {
        if (authority == null) {
            return null;
        }
        String a = authority.strip();
        int close = a.lastIndexOf(']');
        int colon = a.lastIndexOf(':');
        String host = colon > close && (close >= 0 || a.indexOf(':') == colon) ? a.substring(0, colon) : a;
        return host + ":" + port;
    }

    /** The prefix, an absolute path without a trailing slash, or null when absent or just {@code /}. */
    private String prefix() {
        List<String> lines = headers.get(PREFIX);
        if (lines == null) {
            return null;
        }
        OriginResolver.checkLength(lines, PREFIX);
        String p = lines.get(0).strip();
        if (!p.startsWith("/")) {
            throw new IllegalArgumentException(PREFIX + " is not an absolute path: " + p);
        }
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c <= ' ' || c >= 0x7f || c == '?' || c == '#' || c == '\\' || c == '"') {
                throw new IllegalArgumentException("malformed " + PREFIX + ": " + p);
            }
        }
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p.isEmpty() ? null : p;
    }
}
