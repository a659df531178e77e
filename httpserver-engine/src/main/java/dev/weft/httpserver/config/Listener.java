package dev.weft.httpserver.config;

import com.sun.net.httpserver.HttpsConfigurator;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * Where a server listens: an address and port, cleartext or TLS, and whether HTTP/2 is spoken there. A server
 * may have several ({@link dev.weft.httpserver.Weft#createServer}, {@link dev.weft.httpserver.Weft#addListener});
 * they share its contexts, handlers, limits and statistics. Immutable; the {@code with…} methods return copies.
 *
 * <p>Every listener speaks HTTP/1.1. HTTP/2 is added, unless {@link #withHttp2(boolean)} says otherwise, as the
 * server's {@link Http2Config} says: {@code h2} by ALPN on a TLS listener ({@code h2Enabled}), prior-knowledge
 * {@code h2c} on a cleartext one ({@code h2cEnabled}). Likewise each connection starts with a PROXY protocol
 * header where the server's {@link ForwardedConfig#proxyProtocol()} says so, unless
 * {@link #withProxyProtocol(boolean)} says otherwise.
 */
public final class Listener {

    private final InetSocketAddress address;
    private final int backlog;
    private final HttpsConfigurator tls;
    /** The listener's own HTTP/2 choice, or null for the server's. */
    private final Boolean http2;
    /** The listener's own PROXY protocol choice, or null for the server's. */
    private final Boolean proxyProtocol;

    private Listener(InetSocketAddress address, int backlog, HttpsConfigurator tls, Boolean http2,
                     Boolean proxyProtocol) {
        this.address = Objects.requireNonNull(address, "address");
        this.backlog = backlog;
        this.tls = tls;
        this.http2 = http2;
        this.proxyProtocol = proxyProtocol;
    }

    /** A cleartext listener on {@code address} (port 0 for any free port). */
    public static Listener http(InetSocketAddress address) {
        return new Listener(address, 0, null, null, null);
    }

    /** A TLS listener on {@code address} whose connections {@code tls} configures, each before its handshake. */
    public static Listener https(InetSocketAddress address, HttpsConfigurator tls) {
        return new Listener(address, 0, Objects.requireNonNull(tls, "tls"), null, null);
    }

    /** A copy with this listen backlog; 0 or less uses {@link ServerConfig#backlog()}. */
    public Listener withBacklog(int backlog) {
        return new Listener(address, backlog, tls, http2, proxyProtocol);
    }

    /** A copy that offers HTTP/2 ({@code h2} on TLS, {@code h2c} on cleartext) or not, whatever the server's default. */
    public Listener withHttp2(boolean offered) {
        return new Listener(address, backlog, tls, offered, proxyProtocol);
    }

    /**
     * A copy whose connections must (or must not) start with a PROXY protocol header (v1 or v2, read before any
     * TLS handshake), whatever the server's {@link ForwardedConfig#proxyProtocol()}: for a listener behind a TCP
     * load balancer beside one that clients reach directly.
     */
    public Listener withProxyProtocol(boolean required) {
        return new Listener(address, backlog, tls, http2, required);
    }

    /** Where to listen (port 0: any free port; {@code StatsSnapshot.listeners()} tells the one bound). */
    public InetSocketAddress address() {
        return address;
    }

    /** The listen backlog; 0 or less for {@link ServerConfig#backlog()}. */
    public int backlog() {
        return backlog;
    }

    /** The TLS configuration, or {@code null} for cleartext. */
    public HttpsConfigurator tls() {
        return tls;
    }

    /** Whether connections are TLS. */
    public boolean secure() {
        return tls != null;
    }

    /** {@code "https"} or {@code "http"}. */
    public String scheme() {
        return secure() ? "https" : "http";
    }

    /** Whether this listener speaks HTTP/2 on a server with these HTTP/2 settings. */
    public boolean offersHttp2(Http2Config server) {
        if (http2 != null) {
            return http2;
        }
        return secure() ? server.h2Enabled() : server.h2cEnabled();
    }

    /** Whether connections here start with a PROXY protocol header on a server with these settings. */
    public boolean requiresProxyProtocol(ForwardedConfig server) {
        return proxyProtocol != null ? proxyProtocol : server.proxyProtocol();
    }

    /** E.g. {@code https://0.0.0.0:8443}. */
    @Override
    public String toString() {
        return scheme() + "://" + address.getHostString() + ":" + address.getPort();
    }
}
