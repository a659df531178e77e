package dev.weft.httpserver.proxy;

import java.util.BitSet;

/** A set of TCP ports parsed from {@code 80,443,1025-65535}. Immutable after parsing. */
final class Ports {

    private final BitSet ports;
    private final String spec;

    private Ports(BitSet ports, String spec) {
        this.ports = ports;
        this.spec = spec;
    }

    /**
     * @param setting the setting's name, for the error message
     * @throws IllegalArgumentException if {@code spec} is not a comma-separated list of ports and ranges in 1–65535
     */
    static Ports parse(String setting, String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException(setting + " must list at least one port");
        }
        BitSet set = new BitSet(65536);
        for (String part : spec.split(",")) {
            String p = part.strip();
            int dash = p.indexOf('-');
            int from = port(setting, dash < 0 ? p : p.substring(0, dash));
            int to = dash < 0 ? from : port(setting, p.substring(dash + 1));
            if (to < from) {
                throw new IllegalArgumentException(setting + ": empty range " + p);
            }
            set.set(from, to + 1);
        }
        return new Ports(set, spec);
    }

    private static int port(String setting, String s) {
        try {
            int n = Integer.parseInt(s.strip());
            if (n >= 1 && n <= 65535) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(setting + ": not a port in 1-65535: " + s);
    }

    boolean contains(int port) {
        return port >= 1 && port <= 65535 && ports.get(port);
    }

    @Override
    public String toString() {
        return spec;
    }
}
