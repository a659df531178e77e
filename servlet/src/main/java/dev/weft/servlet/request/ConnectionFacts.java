package dev.weft.servlet.request;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsExchange;
import dev.weft.httpserver.ExchangeAttributes;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.forwarded.ClientOrigin;
import jakarta.servlet.ServletConnection;

import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import java.net.InetSocketAddress;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.Locale;

/**
 * What the request knows of its connection (Servlet 6.1 §3.10, §3.9): the scheme, the host and port the client
 * addressed ({@code Host}, which HTTP/2's {@code :authority} fills in), the socket addresses, and for TLS the
 * protocol, cipher suite, key size, session id and client certificates. Behind a trusted proxy the engine's
 * {@link ClientOrigin} gives the client's address, scheme and host instead ({@code forwarded.enabled}).
 * Computed lazily from the exchange; host names are never looked up in DNS. Immutable after construction apart
 * from caches.
 */
final class ConnectionFacts implements ServletConnection {

    static final String CERTIFICATES = "jakarta.servlet.request.X509Certificate";
    static final String CIPHER_SUITE = "jakarta.servlet.request.cipher_suite";
    static final String KEY_SIZE = "jakarta.servlet.request.key_size";
    static final String SSL_SESSION_ID = "jakarta.servlet.request.ssl_session_id";
    static final String SECURE_PROTOCOL = "jakarta.servlet.request.secure_protocol";

    private final HttpExchange exchange;
    private final SSLSession tls;
    private final ClientOrigin origin;
    private String host;
    private int port = -1;

    ConnectionFacts(HttpExchange exchange) {
        this.exchange = exchange;
        this.tls = exchange instanceof HttpsExchange https ? https.getSSLSession() : null;
        this.origin = Weft.origin(exchange);
    }

    String scheme() {
        return origin.scheme();
    }

    /** The host of the {@code Host} field (brackets kept for IPv6), else the local address. */
    String serverName() {
        if (host == null) {
            parseHost();
        }
        return host;
    }

    /** The port of the {@code Host} field, else the scheme's default when {@code Host} has none, else local. */
    int serverPort() {
        if (host == null) {
            parseHost();
        }
        return port;
    }

    private void parseHost() {
        String h = origin.authority() != null ? origin.authority() : exchange.getRequestHeaders().getFirst("Host");
        if (h == null || h.isBlank()) {
            host = localAddress();
            port = localPort();
            return;
        }
        h = h.strip();
        int colon = h.startsWith("[") ? h.indexOf(':', h.indexOf(']')) : h.lastIndexOf(':');
        if (colon > 0) {
            host = h.substring(0, colon);
            try {
                port = Integer.parseInt(h.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = localPort();
            }
        } else {
            host = h;
            port = isSecure() ? 443 : 80;
        }
    }

    /** The client's IP address, or a proxy's {@code unknown} or obfuscated identifier for it. */
    String remoteAddress() {
        InetSocketAddress a = exchange.getRemoteAddress();
        if (a == null) {
            return null;
        }
        return a.getAddress() == null ? a.getHostString() : a.getAddress().getHostAddress();
    }

    int remotePort() {
        InetSocketAddress a = exchange.getRemoteAddress();
        return a == null ? -1 : a.getPort();
    }

    String localAddress() {
        InetSocketAddress a = exchange.getLocalAddress();
        return a == null || a.getAddress() == null ? null : a.getAddress().getHostAddress();
    }

    String localName() {
        InetSocketAddress a = exchange.getLocalAddress();
        return a == null ? null : a.getHostString();
    }

    int localPort() {
        InetSocketAddress a = exchange.getLocalAddress();
        return a == null ? -1 : a.getPort();
    }

    /** A TLS attribute of §3.10, or null (also for every one of them over cleartext). */
    Object tlsAttribute(String name) {
        if (tls == null) {
            return null;
        }
        return switch (name) {
            case CERTIFICATES -> certificates();
            case CIPHER_SUITE -> tls.getCipherSuite();
            case KEY_SIZE -> keySize(tls.getCipherSuite());
            case SSL_SESSION_ID -> HexFormat.of().formatHex(tls.getId());
            case SECURE_PROTOCOL -> tls.getProtocol();
            default -> null;
        };
    }

    private X509Certificate[] certificates() {
        try {
            Certificate[] chain = tls.getPeerCertificates();
            X509Certificate[] out = new X509Certificate[chain.length];
            for (int i = 0; i < chain.length; i++) {
                if (!(chain[i] instanceof X509Certificate x)) {
                    return null;
                }
                out[i] = x;
            }
            return out.length == 0 ? null : out;
        } catch (SSLPeerUnverifiedException e) {
            return null;
        }
    }

    /** The session id as TLS gives it, hex; null over cleartext. */
    String tlsSessionId() {
        return tls == null ? null : HexFormat.of().formatHex(tls.getId());
    }

    /** The symmetric key size of a cipher suite, from its name (e.g. {@code TLS_AES_256_GCM_SHA384} → 256). */
    static Integer keySize(String suite) {
        String s = suite.toUpperCase(Locale.ROOT);
        if (s.contains("CHACHA20")) {
            return 256;
        }
        if (s.contains("3DES") || s.contains("DES_EDE")) {
            return 168;
        }
        for (String size : new String[] {"256", "192", "128"}) {
            if (s.contains("AES_" + size) || s.contains("ARIA_" + size) || s.contains("CAMELLIA_" + size)) {
                return Integer.valueOf(size);
            }
        }
        return null;
    }

    // ---- ServletConnection

    /** The engine's id of the connection: the same for every request on it, HTTP/2 streams included. */
    @Override
    public String getConnectionId() {
        Object id = exchange.getAttribute(ExchangeAttributes.CONNECTION_ID);
        return id != null ? id.toString()
                : remoteAddress() + ":" + remotePort() + "->" + localAddress() + ":" + localPort();
    }

    @Override
    public String getProtocol() {
        String p = exchange.getProtocol();
        if (p.startsWith("HTTP/2")) {
            return tls != null ? "h2" : "h2c";
        }
        return p.toLowerCase(Locale.ROOT);
    }

    @Override
    public String getProtocolConnectionId() {
        return "";
    }

    /** Whether the client used TLS, to this server or to the trusted proxy in front of it. */
    @Override
    public boolean isSecure() {
        return origin.secure();
    }
}
