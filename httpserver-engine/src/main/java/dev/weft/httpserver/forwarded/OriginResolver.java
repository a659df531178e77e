package dev.weft.httpserver.forwarded;

import com.sun.net.httpserver.Headers;
import dev.weft.httpserver.config.ForwardedConfig;
import dev.weft.httpserver.net.AddressSet;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.ServerStats;

import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Resolves a request's {@link ClientOrigin}: from a trusted proxy's {@code Forwarded} field if it sent one,
 * else from its {@code X-Forwarded-*} fields, else from the connection. Fields from a peer that is not a trusted
 * proxy are never read. Walking the chain from the right, trusted proxies are skipped; the first node that is
 * not one is the client. A malformed field, or one beyond {@link #MAX_HOPS} hops or {@link #MAX_CHARS}
 * characters, is ignored as a whole, counted ({@link ProtocolError#BAD_FORWARDED}) and logged at DEBUG.
 * Immutable; safe for every connection thread at once.
 */
public final class OriginResolver {

    /** Most hops of a chain considered. */
    public static final int MAX_HOPS = 20;
    /** Most characters of one field's lines together considered. */
    public static final int MAX_CHARS = 1024;

    private static final System.Logger LOG = System.getLogger(OriginResolver.class.getName());

    private final boolean enabled;
    private final AddressSet trusted;
    private final ServerStats stats;

    public OriginResolver(ForwardedConfig config, ServerStats stats) {
        this.enabled = config.enabled();
        this.trusted = AddressSet.parse(config.trustedProxies());
        this.stats = stats;
    }

    /** Whether forwarded headers are read at all ({@code forwarded.enabled}). */
    public boolean enabled() {
        return enabled;
    }

    /** The origin of a request on a connection from {@code peer}, TLS or not, with {@code headers}. */
    public ClientOrigin resolve(InetSocketAddress peer, boolean secure, Headers headers) {
        ClientOrigin direct = ClientOrigin.direct(peer, secure);
        if (!enabled || peer == null || !trusted.contains(peer.getAddress())) {
            return direct;
        }
        List<String> forwarded = headers.get("Forwarded");
        ClientOrigin origin;
        try {
            if (forwarded != null) {
                origin = fromForwarded(forwarded, direct);
            } else if (XForwarded.present(headers)) {
                origin = new XForwarded(headers, trusted).resolve(direct);
            } else {
                return direct;
            }
        } catch (IllegalArgumentException e) {
            stats.protocolError(ProtocolError.BAD_FORWARDED);
            LOG.log(Level.DEBUG, () -> "ignoring forwarded fields from " + peer + ": " + e.getMessage());
            return direct;
        }
        return origin;
    }

    private ClientOrigin fromForwarded(List<String> lines, ClientOrigin direct) {
        checkLength(lines, "Forwarded");
        List<ForwardedParser.Element> elements = ForwardedParser.parse(lines, MAX_HOPS);
        if (elements == null) {
            throw new IllegalArgumentException("malformed Forwarded or more than " + MAX_HOPS + " hops");
        }
        InetSocketAddress client = direct.remoteAddress();
        ForwardedParser.Element at = null;
        for (int i = elements.size() - 1; i >= 0; i--) {
            at = elements.get(i);
            if (at.forNode() == null) {
                break; // the proxy did not say whom it forwarded for: the chain ends at the last known node
            }
            InetSocketAddress node = ForwardedNode.parse(at.forNode());
            if (node == null) {
                throw new IllegalArgumentException("malformed node: " + at.forNode());
            }
            client = node;
            if (!trusted.contains(node.isUnresolved() ? null : node.getAddress())) {
                break;
            }
        }
        String scheme = at.proto() == null ? direct.scheme() : scheme(at.proto());
        return new ClientOrigin(client, scheme, at.host() == null ? null : authority(at.host()), null, true);
    }

    /** Rejects a field whose lines together are longer than {@link #MAX_CHARS}. */
    static void checkLength(List<String> lines, String name) {
        int total = 0;
        for (String line : lines) {
            total += line.length();
        }
        if (total > MAX_CHARS) {
            throw new IllegalArgumentException(name + " longer than " + MAX_CHARS + " characters");
        }
    }

    /** {@code http} or {@code https}, lower case. */
    static String scheme(String proto) {
        String p = proto.strip();
        if (p.equalsIgnoreCase("http")) {
            return "http";
        }
        if (p.equalsIgnoreCase("https")) {
            return "https";
        }
        throw new IllegalArgumentException("unsupported proto: " + p);
    }

    /** A {@code host[:port]} as it may stand in a {@code Host} field: no spaces, controls or delimiters. */
    static String authority(String host) {
        String h = host.strip();
        if (h.isEmpty() || h.length() > 255) {
            throw new IllegalArgumentException("malformed host: " + h);
        }
        for (int i = 0; i < h.length(); i++) {
            char c = h.charAt(i);
            if (c <= ' ' || c >= 0x7f || "/?#@\"\\<>{}|^`,;".indexOf(c) >= 0) {
                throw new IllegalArgumentException("malformed host: " + h);
            }
        }
        return h;
    }
}
