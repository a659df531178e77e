package dev.weft.httpserver.forwarded;

import dev.weft.httpserver.net.AddressRange;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Reads one node of a forwarding chain (RFC 7239 §6; also an {@code X-Forwarded-For} entry): an IPv4 literal,
 * a bracketed IPv6 literal, either with an optional {@code :port}, a bare IPv6 literal, {@code unknown}, or an
 * obfuscated identifier such as {@code _hidden}. No name is ever looked up.
 */
final class ForwardedNode {

    private ForwardedNode() {
    }

    /**
     * The node as an address: resolved for an IP literal (port 0 when none, or an obfuscated one, was given),
     * unresolved for {@code unknown} and obfuscated identifiers; {@code null} when malformed.
     */
    static InetSocketAddress parse(String node) {
        String s = node.strip();
        if (s.isEmpty()) {
            return null;
        }
        String host;
        String port = null;
        if (s.charAt(0) == '[') {
            int close = s.indexOf(']');
            if (close < 0) {
                return null;
            }
            host = s.substring(1, close);
            if (close + 1 < s.length()) {
                if (s.charAt(close + 1) != ':') {
                    return null;
                }
                port = s.substring(close + 2);
            }
            if (host.indexOf(':') < 0) {
                return null;
            }
        } else {
            int colon = s.indexOf(':');
            boolean bareIpv6 = colon >= 0 && s.indexOf(':', colon + 1) >= 0;
            host = colon < 0 || bareIpv6 ? s : s.substring(0, colon);
            port = colon < 0 || bareIpv6 ? null : s.substring(colon + 1);
        }
        int p = port == null ? 0 : port(port);
        if (p < 0) {
            return null;
        }
        if (host.equalsIgnoreCase("unknown") || isObfuscated(host)) {
            return InetSocketAddress.createUnresolved(host, p);
        }
        if (!AddressRange.isLiteral(host)) {
            return null;
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host), p);
        } catch (UnknownHostException e) {
            return null; // not a valid literal after all
        }
    }

    /** The port, 0 for an obfuscated one, -1 when malformed. */
    private static int port(String s) {
        if (isObfuscated(s)) {
            return 0;
        }
        if (s.isEmpty() || s.length() > 5) {
            return -1;
        }
        int p = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            p = p * 10 + (c - '0');
        }
        return p <= 65535 ? p : -1;
    }

    /** RFC 7239 §6.3: {@code "_" 1*(ALPHA / DIGIT / "." / "_" / "-")}. */
    private static boolean isObfuscated(String s) {
        if (s.length() < 2 || s.charAt(0) != '_') {
            return false;
        }
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(Character.isLetterOrDigit(c) && c < 0x80 || c == '.' || c == '_' || c == '-')) {
                return false;
            }
        }
        return true;
    }
}
