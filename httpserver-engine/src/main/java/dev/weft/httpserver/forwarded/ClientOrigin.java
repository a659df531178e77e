package dev.weft.httpserver.forwarded;

import java.net.InetSocketAddress;

/**
 * Where a request really came from and what the client addressed, as the server resolved it once per exchange:
 * from the socket, or from a trusted proxy's {@code Forwarded} / {@code X-Forwarded-*} fields (and, below them,
 * a PROXY protocol header, which already replaced the socket's peer). Immutable.
 *
 * @param remoteAddress the client: its IP address and port (port 0 when a proxy did not say), or an unresolved
 *                      address holding a proxy's {@code unknown} or obfuscated identifier such as {@code _hidden}
 * @param scheme        {@code http} or {@code https} as the client used it
 * @param authority     the {@code host[:port]} the client addressed, as a trusted proxy forwarded it; {@code null}
 *                      when none did (then the request's own {@code Host} holds)
 * @param prefix        the path prefix a proxy stripped ({@code X-Forwarded-Prefix}, e.g. {@code /app}), or
 *                      {@code null}
 * @param forwarded     whether any of these came from a trusted proxy's fields rather than the connection
 */
public record ClientOrigin(InetSocketAddress remoteAddress, String scheme, String authority, String prefix,
                           boolean forwarded) {

    /** The origin of a request taken straight from its connection. */
    public static ClientOrigin direct(InetSocketAddress peer, boolean secure) {
        return new ClientOrigin(peer, secure ? "https" : "http", null, null, false);
    }

    /** Whether the client used TLS (to this server or to the proxy in front of it). */
    public boolean secure() {
        return "https".equals(scheme);
    }
}
