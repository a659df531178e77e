package dev.weft.httpserver.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * A CIDR block of IPv4 or IPv6 addresses ({@code 10.0.0.0/8}, {@code fe80::/10}; a bare address is a block of
 * one), and the special-purpose blocks a proxy must not reach unless told to. Immutable.
 *
 * @param network the address bytes, host bits cleared
 * @param bits    the prefix length
 */
public record AddressRange(byte[] network, int bits) {

    /**
     * Loopback, private, link-local, shared (CGNAT), multicast, reserved, documentation and transition blocks
     * of the IANA IPv4 and IPv6 special-purpose address registries (RFC 6890 and updates). IPv4-mapped IPv6
     * addresses need no entry: the JDK turns them into IPv4 addresses.
     */
    public static final List<AddressRange> SPECIAL = List.of(
            parse("0.0.0.0/8"), parse("10.0.0.0/8"), parse("100.64.0.0/10"), parse("127.0.0.0/8"),
            parse("169.254.0.0/16"), parse("172.16.0.0/12"), parse("192.0.0.0/24"), parse("192.0.2.0/24"),
            parse("192.88.99.0/24"), parse("192.168.0.0/16"), parse("198.18.0.0/15"), parse("198.51.100.0/24"),
            parse("203.0.113.0/24"), parse("224.0.0.0/4"), parse("240.0.0.0/4"),
            parse("::/128"), parse("::1/128"), parse("::/96"), parse("64:ff9b::/96"), parse("64:ff9b:1::/48"),
            parse("100::/64"), parse("2001::/23"), parse("2001:db8::/32"), parse("2002::/16"), parse("fc00::/7"),
            parse("fe80::/10"), parse("fec0::/10"), parse("ff00::/8"));

    /**
     * Parses {@code address[/bits]}; the address must be a literal (no name is looked up).
     *
     * @throws IllegalArgumentException if it is not a valid literal and prefix
     */
    public static AddressRange parse(String cidr) {
        int slash = cidr.indexOf('/');
        String literal = slash < 0 ? cidr : cidr.substring(0, slash);
        if (!isLiteral(literal)) {
            throw new IllegalArgumentException("not an IP address: " + cidr);
        }
        byte[] bytes;
        try {
            bytes = InetAddress.getByName(literal).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: " + cidr, e);
        }
        int max = bytes.length * 8;
        int bits = max;
        if (slash >= 0) {
            try {
                bits = Integer.parseInt(cidr.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("invalid prefix length: " + cidr, e);
            }
            if (bits < 0 || bits > max) {
                throw new IllegalArgumentException("prefix length out of range: " + cidr);
            }
        }
        for (int i = 0; i < bytes.length; i++) {
            int keep = Math.max(0, Math.min(8, bits - i * 8));
            bytes[i] &= (byte) (0xff00 >> keep);
        }
        return new AddressRange(bytes, bits);
    }

    /** Whether {@code s} is an IPv4 or IPv6 literal (so {@link InetAddress#getByName} does no lookup). */
    public static boolean isLiteral(String s) {
        if (s.isEmpty()) {
            return false;
        }
        if (s.indexOf(':') >= 0) {
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (!(Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
                    return false;
                }
            }
            return true;
        }
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit) || Integer.parseInt(p) > 255) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code address} lies in this block (an IPv4 address never lies in an IPv6 block). */
    public boolean contains(InetAddress address) {
        byte[] a = address.getAddress();
        if (a.length != network.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            int keep = Math.max(0, Math.min(8, bits - i * 8));
            int mask = (0xff00 >> keep) & 0xff;
            if ((a[i] & mask) != (network[i] & 0xff)) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code address} is in one of the {@link #SPECIAL} blocks. */
    public static boolean isSpecial(InetAddress address) {
        for (AddressRange r : SPECIAL) {
            if (r.contains(address)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + bits;
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AddressRange r && r.bits == bits && java.util.Arrays.equals(r.network, network);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(network) * 31 + bits;
    }
}
