package dev.weft.httpserver.proxy;

import static dev.weft.httpserver.config.SettingChecks.positive;
import static dev.weft.httpserver.config.SettingChecks.timeout;

import com.sun.net.httpserver.Authenticator;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Immutable, validated settings of one {@link ProxyHandler}: which targets it may reach, its timeouts and
 * limits, the fields it adds and its authorization hook. Create one with {@link #builder()}; {@link #defaults()}
 * gives the documented defaults.
 *
 * @param allowedHosts           targets that may be requested: exact names ({@code example.com}), suffix
 *                               patterns ({@code *.example.com}: subdomains only), and IP addresses or CIDR
 *                               blocks ({@code 203.0.113.7}, {@code 10.0.0.0/8}) matched against the resolved
 *                               address. Empty (the default) allows every host. Whatever the names allow, a
 *                               resolved address in a private, loopback, link-local, multicast or other
 *                               special-purpose block is refused unless an address entry here covers it.
 * @param forwardPorts           ports absolute-form requests may go to, as {@code 80,8080,1025-65535}
 *                               (default {@code 80,1025-65535}, Squid's {@code Safe_ports} for HTTP)
 * @param connectPorts           ports {@code CONNECT} may open tunnels to (default {@code 443}, Squid's
 *                               {@code SSL_ports})
 * @param connectTimeout         time allowed to open the connection to the target; then {@code 504}
 *                               (default 10 s)
 * @param responseTimeout        time from sending a forwarded request to receiving the whole response head;
 *                               then {@code 504} (default 30 s)
 * @param idleTimeout            longest a tunnel may carry no byte in either direction, and longest a
 *                               forwarded response body may stall, before both sides are closed (default 5 min)
 * @param maxResponseHeadSize    largest response head (status line and fields) accepted from an origin, in
 *                               bytes; larger gets {@code 502} (default 64 KiB)
 * @param maxResponseHeaderCount most fields in a response head (or trailer section) from an origin; more
 *                               gets {@code 502} (default 200)
 * @param viaName                the pseudonym this proxy adds to {@code Via} (RFC 9110 §7.6.3) and looks for
 *                               to detect forwarding loops; give each proxy of a chain its own (default
 *                               {@code weft})
 * @param forwardedHeader        whether forwarded requests get a {@code Forwarded} field (RFC 7239) with the
 *                               client's address, the requested host and {@code proto=http} (default true)
 * @param authenticator          the authorization hook, or {@code null} for none (default); see
 *                               {@link ProxyHandler} for how a JDK {@link Authenticator} answers {@code 407}
 * @param resolver               how target names become addresses (default {@link InetAddress#getAllByName})
 */
public record ProxyConfig(
        List<String> allowedHosts,
        String forwardPorts,
        String connectPorts,
        Duration connectTimeout,
        Duration responseTimeout,
        Duration idleTimeout,
        int maxResponseHeadSize,
        int maxResponseHeaderCount,
        String viaName,
        boolean forwardedHeader,
        Authenticator authenticator,
        Resolver resolver) {

    /** Turns a host name into the addresses to try, in order. */
    @FunctionalInterface
    public interface Resolver {
        /**
         * @throws UnknownHostException if the name has no address
         */
        List<InetAddress> resolve(String host) throws UnknownHostException;
    }

    private static final Resolver SYSTEM_RESOLVER = host -> List.of(InetAddress.getAllByName(host));
    private static final ProxyConfig DEFAULTS = new Builder().build();

    /** Validates every setting; use {@link #builder()} rather than this constructor. */
    public ProxyConfig {
        allowedHosts = List.copyOf(allowedHosts);
        HostRules.parse(allowedHosts);
        Ports.parse("forwardPorts", forwardPorts);
        Ports.parse("connectPorts", connectPorts);
        timeout("connectTimeout", connectTimeout);
        timeout("responseTimeout", responseTimeout);
        timeout("idleTimeout", idleTimeout);
        if (maxResponseHeadSize < 256) {
            throw new IllegalArgumentException("maxResponseHeadSize must be at least 256, was " + maxResponseHeadSize);
        }
        positive("maxResponseHeaderCount", maxResponseHeaderCount);
        Objects.requireNonNull(viaName, "viaName");
        if (viaName.isEmpty() || !viaName.chars().allMatch(c -> c > 0x20 && c < 0x7f && c != ',' && c != '(')) {
            throw new IllegalArgumentException("viaName must be a token-like pseudonym, was " + viaName);
        }
        Objects.requireNonNull(resolver, "resolver");
    }

    /** The documented defaults. */
    public static ProxyConfig defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Mutable builder of a {@link ProxyConfig}; {@link #build()} validates. */
    public static final class Builder {
        private List<String> allowedHosts = List.of();
        private String forwardPorts = "80,1025-65535";
        private String connectPorts = "443";
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration responseTimeout = Duration.ofSeconds(30);
        private Duration idleTimeout = Duration.ofMinutes(5);
        private int maxResponseHeadSize = 64 * 1024;
        private int maxResponseHeaderCount = 200;
        private String viaName = "weft";
        private boolean forwardedHeader = true;
        private Authenticator authenticator;
        private Resolver resolver = SYSTEM_RESOLVER;

        private Builder() {
        }

        /** @see ProxyConfig#allowedHosts() */
        public Builder allowedHosts(String... patterns) { allowedHosts = List.of(patterns); return this; }

        /** @see ProxyConfig#forwardPorts() */
        public Builder forwardPorts(String ports) { forwardPorts = ports; return this; }

        /** @see ProxyConfig#connectPorts() */
        public Builder connectPorts(String ports) { connectPorts = ports; return this; }

        /** @see ProxyConfig#connectTimeout() */
        public Builder connectTimeout(Duration d) { connectTimeout = d; return this; }

        /** @see ProxyConfig#responseTimeout() */
        public Builder responseTimeout(Duration d) { responseTimeout = d; return this; }

        /** @see ProxyConfig#idleTimeout() */
        public Builder idleTimeout(Duration d) { idleTimeout = d; return this; }

        /** @see ProxyConfig#maxResponseHeadSize() */
        public Builder maxResponseHeadSize(int bytes) { maxResponseHeadSize = bytes; return this; }

        /** @see ProxyConfig#maxResponseHeaderCount() */
        public Builder maxResponseHeaderCount(int count) { maxResponseHeaderCount = count; return this; }

        /** @see ProxyConfig#viaName() */
        public Builder viaName(String name) { viaName = name; return this; }

        /** @see ProxyConfig#forwardedHeader() */
        public Builder forwardedHeader(boolean on) { forwardedHeader = on; return this; }

        /** @see ProxyConfig#authenticator() */
        public Builder authenticator(Authenticator hook) { authenticator = hook; return this; }

        /** @see ProxyConfig#resolver() */
        public Builder resolver(Resolver r) { resolver = r; return this; }

        /** Validates and returns the configuration. */
        public ProxyConfig build() {
            return new ProxyConfig(allowedHosts, forwardPorts, connectPorts, connectTimeout, responseTimeout,
                    idleTimeout, maxResponseHeadSize, maxResponseHeaderCount, viaName, forwardedHeader,
                    authenticator, resolver);
        }
    }
}
