package dev.weft.httpserver.proxy;

import com.sun.net.httpserver.Headers;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fields a proxy must not pass on (RFC 9110 §7.6.1: {@code Connection} and every field it names, plus the
 * hop-by-hop fields of RFC 9112 and RFC 9110 §11.7), and the ones it adds: {@code Via} (§7.6.3) and
 * {@code Forwarded} (RFC 7239). Stateless.
 */
final class HopByHop {

    /**
     * Keys (in {@link Headers} form) never forwarded in either direction: connection management, the proxy's
     * own authentication, and the framing fields this proxy sets itself for the next hop.
     */
    private static final Set<String> ALWAYS = Set.of("Connection", "Keep-alive", "Proxy-connection", "Te",
            "Transfer-encoding", "Upgrade", "Proxy-authorization", "Proxy-authenticate", "Content-length");

    private HopByHop() {
    }

    /**
     * Copies the end-to-end fields of {@code from} into {@code to}: all but {@link #ALWAYS}, the fields that
     * {@code Connection} names, and {@code extra}.
     */
    static void copyEndToEnd(Headers from, Headers to, Set<String> extra) {
        Set<String> dropped = new HashSet<>(ALWAYS);
        dropped.addAll(extra);
        List<String> connection = from.get("Connection");
        if (connection != null) {
            for (String value : connection) {
                for (String token : value.split(",")) {
                    String t = token.strip();
                    if (!t.isEmpty()) {
                        dropped.add(key(t));
                    }
                }
            }
        }
        for (Map.Entry<String, List<String>> e : from.entrySet()) {
            if (!dropped.contains(key(e.getKey()))) {
                for (String v : e.getValue()) {
                    to.add(e.getKey(), v);
                }
            }
        }
    }

    /** The form {@link Headers} keys take: first letter upper case, the rest lower case. */
    static String key(String name) {
        if (name.isEmpty()) {
            return name;
        }
        return Character.toUpperCase(name.charAt(0)) + name.substring(1).toLowerCase(java.util.Locale.ROOT);
    }

    /** Appends {@code protocol pseudonym} (e.g. {@code 1.1 weft}) to the {@code Via} of {@code to}. */
    static void addVia(Headers to, String protocol, String pseudonym) {
        to.add("Via", protocol + " " + pseudonym);
    }

    /** The {@code received-protocol} of {@code Via} for an HTTP version string: {@code HTTP/1.1} → {@code 1.1}. */
    static String viaProtocol(String httpVersion) {
        return httpVersion.startsWith("HTTP/") ? httpVersion.substring(5) : httpVersion;
    }

    /** Whether {@code via} values name {@code pseudonym} as a received-by (a request that has come round). */
    static boolean viaNames(List<String> via, String pseudonym) {
        if (via == null) {
            return false;
        }
        for (String value : via) {
            for (String hop : value.split(",")) {
                String[] parts = hop.strip().split("[ \t]+");
                if (parts.length >= 2 && parts[1].equalsIgnoreCase(pseudonym)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** One {@code forwarded-element} (RFC 7239 §4): {@code for=client;host=host;proto=http}. */
    static String forwardedElement(InetSocketAddress client, String host) {
        String node = client.getAddress() instanceof Inet6Address
                ? "\"[" + client.getAddress().getHostAddress() + "]\"" : client.getAddress().getHostAddress();
        return "for=" + node + ";host=" + quoteIfNeeded(host) + ";proto=http";
    }

    /** A token as is, anything else as a quoted-string (RFC 7239 §4, RFC 9110 §5.6.4). */
    private static String quoteIfNeeded(String value) {
        boolean token = !value.isEmpty();
        for (int i = 0; i < value.length() && token; i++) {
            char c = value.charAt(i);
            token = c > 0x20 && c < 0x7f && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
        }
        if (token) {
            return value;
        }
        StringBuilder s = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                s.append('\\');
            }
            s.append(c);
        }
        return s.append('"').toString();
    }
}
