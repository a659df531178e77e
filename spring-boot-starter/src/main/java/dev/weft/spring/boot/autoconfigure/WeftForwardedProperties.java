package dev.weft.spring.boot.autoconfigure;

import dev.weft.httpserver.config.ForwardedConfig;
import dev.weft.httpserver.config.Setting;
import org.springframework.validation.Errors;

/**
 * The client's origin behind reverse proxies ({@code weft.server.forwarded.*}): the engine's own handling of
 * {@code Forwarded}/{@code X-Forwarded-*} from trusted proxies, also switched on by
 * {@code server.forward-headers-strategy=native} (and, with no strategy set, on a detected cloud platform), and
 * the PROXY protocol. Defaults are the engine's.
 */
public class WeftForwardedProperties {

    /**
     * Whether Forwarded and X-Forwarded-For/-Proto/-Host/-Port/-Prefix from a trusted proxy give the client's
     * address, the scheme and the host it used. server.forward-headers-strategy=native turns it on as well.
     */
    private boolean enabled = false;

    /**
     * The proxies whose forwarded headers are believed, and skipped when walking X-Forwarded-For from the right:
     * IP addresses and CIDR blocks, comma-separated; "internal" stands for loopback, private and link-local
     * blocks.
     */
    private String trustedProxies = "internal";

    /**
     * Whether every connection must start with a PROXY protocol (v1 or v2) header, read before TLS; a
     * connection without a valid one within the header-read timeout is closed. Never detected: only for a
     * port that a PROXY-speaking load balancer alone reaches.
     */
    private boolean proxyProtocol = false;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getTrustedProxies() {
        return trustedProxies;
    }

    public void setTrustedProxies(String trustedProxies) {
        this.trustedProxies = trustedProxies;
    }

    public boolean isProxyProtocol() {
        return proxyProtocol;
    }

    public void setProxyProtocol(boolean proxyProtocol) {
        this.proxyProtocol = proxyProtocol;
    }

    /**
     * The engine's configuration with these values, the forwarded fields on when {@code enabled} or
     * {@code nativeStrategy}.
     *
     * @throws IllegalArgumentException if the trusted proxies do not parse
     */
    public ForwardedConfig toConfig(boolean nativeStrategy) {
        return ForwardedConfig.builder().enabled(enabled || nativeStrategy).trustedProxies(trustedProxies)
                .proxyProtocol(proxyProtocol).build();
    }

    void validate(Errors errors) {
        EngineSettings.validate(errors, "weft.server.forwarded", Setting.Group.FORWARDED, () -> toConfig(false));
    }
}
