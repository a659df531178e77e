package dev.weft.httpserver.proxyprotocol;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * What a PROXY protocol header told about a connection (HAProxy's proxy-protocol.txt). Immutable.
 *
 * @param version     1 (text) or 2 (binary)
 * @param source      the client's address as the proxy saw it, or {@code null} when the header carries none
 *                    ({@code PROXY UNKNOWN}, v2 {@code LOCAL}, an unspecified or UNIX family): the socket's
 *                    peer then stays the client
 * @param destination the address the client connected to, or {@code null} with {@code source}
 * @param tlvs        the v2 type-length-value fields in order (empty for v1)
 * @param tls         the client's TLS connection to the proxy from a v2 {@code PP2_TYPE_SSL} field, or
 *                    {@code null} when there was none
 */
public record ProxyHeader(int version, InetSocketAddress source, InetSocketAddress destination, List<Tlv> tlvs,
                          ProxyTls tls) {

    public ProxyHeader {
        tlvs = List.copyOf(tlvs);
    }

    /** One v2 type-length-value field. */
    public record Tlv(int type, byte[] value) {
        /** {@code PP2_TYPE_ALPN}. */
        public static final int ALPN = 0x01;
        /** {@code PP2_TYPE_AUTHORITY}: the host name the client asked for (SNI). */
        public static final int AUTHORITY = 0x02;
        /** {@code PP2_TYPE_UNIQUE_ID}. */
        public static final int UNIQUE_ID = 0x05;
        /** {@code PP2_TYPE_SSL}. */
        public static final int SSL = 0x20;
    }

    /** The value of the first TLV of {@code type}, or {@code null}. */
    public byte[] tlv(int type) {
        for (Tlv t : tlvs) {
            if (t.type() == type) {
                return t.value().clone();
            }
        }
        return null;
    }
}
