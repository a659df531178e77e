package dev.weft.httpserver.net;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A set of addresses written as a comma-separated list of literals and CIDR blocks, where the word
 * {@code internal} stands for the {@link #INTERNAL} blocks; for telling trusted proxies from clients.
 * Immutable; no name is ever looked up.
 */
public final class AddressSet {

    /** The word that stands for {@link #INTERNAL} in a list. */
    public static final String INTERNAL_WORD = "internal";

    /**
     * Loopback, private (RFC 1918, RFC 4193) and link-local blocks: where a reverse proxy in front of a server
     * usually is (as Tomcat's {@code internalProxies}).
     */
    public static final List<AddressRange> INTERNAL = List.of(
            AddressRange.parse("127.0.0.0/8"), AddressRange.parse("10.0.0.0/8"),
            AddressRange.parse("172.16.0.0/12"), AddressRange.parse("192.168.0.0/16"),
            AddressRange.parse("169.254.0.0/16"), AddressRange.parse("::1/128"), AddressRange.parse("fc00::/7"),
            AddressRange.parse("fe80::/10"));

    private final List<AddressRange> ranges;

    private AddressSet(List<AddressRange> ranges) {
        this.ranges = List.copyOf(ranges);
    }

    /**
     * Parses a list such as {@code internal, 203.0.113.7, 2001:db8::/32}; blank entries are skipped, an empty
     * list is the empty set.
     *
     * @throws IllegalArgumentException naming the first entry that is neither a literal, a block nor the word
     */
    public static AddressSet parse(String list) {
        List<AddressRange> ranges = new ArrayList<>();
        if (list != null) {
            for (String entry : list.split(",")) {
                String e = entry.strip();
                if (e.isEmpty()) {
                    continue;
                }
                if (e.equalsIgnoreCase(INTERNAL_WORD)) {
                    ranges.addAll(INTERNAL);
                } else {
                    ranges.add(AddressRange.parse(e));
                }
            }
        }
        return new AddressSet(ranges);
    }

    /** Whether {@code list} parses ({@link #parse}). */
    public static boolean isValid(String list) {
        try {
            parse(list);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Whether {@code address} lies in one of the blocks; {@code null} never does. */
    public boolean contains(InetAddress address) {
        if (address == null) {
            return false;
        }
        for (AddressRange r : ranges) {
            if (r.contains(address)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return ranges.toString();
    }
}
