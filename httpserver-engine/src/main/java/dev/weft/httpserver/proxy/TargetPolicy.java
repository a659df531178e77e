package dev.weft.httpserver.proxy;

import dev.weft.httpserver.net.AddressRange;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides whether a target may be reached and which addresses to connect to: the port against the
 * forward or CONNECT port list, the name against the host rules, then every resolved address against the
 * special-purpose blocks. The caller connects to exactly the addresses returned, so a name cannot resolve
 * to an allowed address here and to another one at connect time (DNS rebinding). Immutable, shared by
 * every exchange of a handler.
 */
final class TargetPolicy {

    /** A target the configuration does not allow; the message says why (for logs and the 403 body). */
    static final class Denied extends Exception {
        private static final long serialVersionUID = 1L;

        Denied(String message) {
            super(message, null, false, false);
        }
    }

    private final HostRules hosts;
    private final Ports forwardPorts;
    private final Ports connectPorts;
    private final ProxyConfig.Resolver resolver;

    TargetPolicy(ProxyConfig config) {
        hosts = HostRules.parse(config.allowedHosts());
        forwardPorts = Ports.parse("forwardPorts", config.forwardPorts());
        connectPorts = Ports.parse("connectPorts", config.connectPorts());
        resolver = config.resolver();
    }

    /**
     * The addresses to try for {@code host:port}, in order, all of them allowed.
     *
     * @param host   a name or an IP literal (IPv6 with or without brackets)
     * @param tunnel whether this is a {@code CONNECT} (which port list applies)
     * @throws Denied               if the port, the name or every resolved address is refused
     * @throws UnknownHostException if the name does not resolve
     */
    List<InetSocketAddress> resolve(String host, int port, boolean tunnel) throws Denied, UnknownHostException {
        Ports ports = tunnel ? connectPorts : forwardPorts;
        if (!ports.contains(port)) {
            throw new Denied("port " + port + " is not allowed" + (tunnel ? " for CONNECT" : ""));
        }
        String name = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        name = HostRules.normalize(name);
        boolean literal = AddressRange.isLiteral(name);
        List<InetAddress> candidates = literal ? List.of(InetAddress.getByName(name)) : resolver.resolve(name);
        boolean nameAllowed = hosts.isEmpty() || !literal && hosts.allowsName(name);
        List<InetSocketAddress> allowed = new ArrayList<>(candidates.size());
        String refusal = null;
        for (InetAddress a : candidates) {
            boolean explicit = hosts.allowsAddress(a);
            if (!nameAllowed && !explicit) {
                refusal = "host " + name + " is not allowed";
            } else if (!explicit && (AddressRange.isSpecial(a) || a.isAnyLocalAddress() || a.isLoopbackAddress()
                    || a.isLinkLocalAddress() || a.isSiteLocalAddress() || a.isMulticastAddress())) {
                refusal = "address " + a.getHostAddress() + " of " + name + " is in a private or special-purpose range";
            } else {
                allowed.add(new InetSocketAddress(a, port));
            }
        }
        if (allowed.isEmpty()) {
            throw new Denied(refusal != null ? refusal : "host " + name + " has no address");
        }
        return allowed;
    }
}
