package dev.weft.httpserver.config;

/**
 * Where a server takes the client's origin from when it runs behind reverse proxies or load balancers, part of
 * {@link ServerConfig}. Off by default: the socket's peer is the client.
 *
 * @param enabled        whether {@code Forwarded} (RFC 7239) and {@code X-Forwarded-For}, {@code -Proto},
 *                       {@code -Host}, {@code -Port} and {@code -Prefix} give the client's address, the scheme and
 *                       the host it used, when the connection's peer is a trusted proxy (default off)
 * @param trustedProxies the proxies those headers are believed from, and skipped when walking
 *                       {@code X-Forwarded-For} from the right: IP literals and CIDR blocks, comma-separated,
 *                       where {@code internal} stands for loopback, private and link-local blocks
 *                       (default {@code internal})
 * @param proxyProtocol  whether every connection must start with a PROXY protocol header (HAProxy's v1 text or
 *                       v2 binary), read before TLS, which then gives the connection's client and server
 *                       addresses; a connection without a valid one is closed (default off)
 */
public record ForwardedConfig(boolean enabled, String trustedProxies, boolean proxyProtocol) {

    private static final ForwardedConfig DEFAULTS = new Builder().build();

    /** Validates every setting; use {@link #builder()} rather than this constructor. */
    public ForwardedConfig {
        Settings.FORWARDED_ENABLED.check(enabled);
        Settings.FORWARDED_TRUSTED_PROXIES.check(trustedProxies);
        Settings.FORWARDED_PROXY_PROTOCOL.check(proxyProtocol);
    }

    /** The documented defaults. */
    public static ForwardedConfig defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Mutable builder of a {@link ForwardedConfig}; {@link #build()} validates. */
    public static final class Builder {
        private boolean enabled = Settings.FORWARDED_ENABLED.defaultValue();
        private String trustedProxies = Settings.FORWARDED_TRUSTED_PROXIES.defaultValue();
        private boolean proxyProtocol = Settings.FORWARDED_PROXY_PROTOCOL.defaultValue();

        private Builder() {
        }

        private Builder(ForwardedConfig c) {
            enabled = c.enabled;
            trustedProxies = c.trustedProxies;
            proxyProtocol = c.proxyProtocol;
        }

        /** @see ForwardedConfig#enabled() */
        public Builder enabled(boolean on) { enabled = on; return this; }

        /** @see ForwardedConfig#trustedProxies() */
        public Builder trustedProxies(String list) { trustedProxies = list; return this; }

        /** @see ForwardedConfig#proxyProtocol() */
        public Builder proxyProtocol(boolean on) { proxyProtocol = on; return this; }

        /** Validates and returns the configuration. */
        public ForwardedConfig build() {
            return new ForwardedConfig(enabled, trustedProxies, proxyProtocol);
        }
    }
}
