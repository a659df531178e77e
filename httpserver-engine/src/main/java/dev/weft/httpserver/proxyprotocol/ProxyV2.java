package dev.weft.httpserver.proxyprotocol;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Parses a version 2 (binary) header: the 12-byte signature, version and command, family and transport, a
 * length, then the addresses and type-length-value fields, whose {@code PP2_TYPE_SSL} is read into a
 * {@link ProxyTls}. {@code LOCAL}, unspecified and UNIX headers carry no usable addresses.
 */
final class ProxyV2 {

    /** Signature, version/command, family/transport and length. */
    static final int FIXED_LENGTH = 16;
    /** Most bytes after the fixed part accepted: addresses and TLVs. */
    static final int MAX_PAYLOAD = 4096;

    private static final byte[] SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};
    private static final int SSL_VERSION = 0x21;
    private static final int SSL_CN = 0x22;
    private static final int SSL_CIPHER = 0x23;
    private static final int SSL_SIG_ALG = 0x24;
    private static final int SSL_KEY_ALG = 0x25;

    private ProxyV2() {
    }

    /** Whether {@code b[0..n)} is a prefix of the signature. */
    static boolean startsLikeSignature(byte[] b, int n) {
        return Arrays.equals(b, 0, n, SIGNATURE, 0, n);
    }

    /**
     * The length of the payload after the fixed part, checked.
     *
     * @throws MalformedProxyHeaderException for a bad signature, version, command, family or a too long payload
     */
    static int payloadLength(byte[] fixed) throws MalformedProxyHeaderException {
        if (!startsLikeSignature(fixed, SIGNATURE.length)) {
            throw new MalformedProxyHeaderException("v2 header with a bad signature");
        }
        int versionCommand = fixed[12] & 0xff;
        if (versionCommand >> 4 != 2 || (versionCommand & 0x0f) > 1) {
            throw new MalformedProxyHeaderException("v2 header with a bad version or command");
        }
        if ((fixed[13] & 0xff) >> 4 > 3 || (fixed[13] & 0x0f) > 2) {
            throw new MalformedProxyHeaderException("v2 header with a bad family or transport");
        }
        int length = (fixed[14] & 0xff) << 8 | fixed[15] & 0xff;
        if (length > MAX_PAYLOAD) {
            throw new MalformedProxyHeaderException("v2 header longer than " + MAX_PAYLOAD + " bytes");
        }
        return length;
    }

    /** The header of the fixed part and its payload. */
    static ProxyHeader parse(byte[] fixed, byte[] payload) throws MalformedProxyHeaderException {
        payloadLength(fixed);
        boolean local = (fixed[12] & 0x0f) == 0;
        int family = (fixed[13] & 0xff) >> 4;
        int addressLength = switch (family) {
            case 1 -> 12;
            case 2 -> 36;
            case 3 -> 216;
            default -> 0;
        };
        if (payload.length < addressLength) {
            throw new MalformedProxyHeaderException("v2 header shorter than its addresses");
        }
        List<ProxyHeader.Tlv> tlvs = tlvs(payload, addressLength, payload.length);
        ProxyTls tls = null;
        for (ProxyHeader.Tlv t : tlvs) {
            if (t.type() == ProxyHeader.Tlv.SSL && tls == null) {
                tls = ssl(t.value());
            }
        }
        boolean inet = family == 1 || family == 2;
        boolean stream = (fixed[13] & 0x0f) == 1;
        if (local || !inet || !stream) {
            return new ProxyHeader(2, null, null, tlvs, tls);
        }
        int size = family == 1 ? 4 : 16;
        InetSocketAddress src = new InetSocketAddress(address(payload, 0, size), port(payload, 2 * size));
        InetSocketAddress dst = new InetSocketAddress(address(payload, size, size), port(payload, 2 * size + 2));
        return new ProxyHeader(2, src, dst, tlvs, tls);
    }

    private static List<ProxyHeader.Tlv> tlvs(byte[] b, int from, int to) throws MalformedProxyHeaderException {
        List<ProxyHeader.Tlv> out = new ArrayList<>();
        int i = from;
        while (i < to) {
            if (to - i < 3) {
                throw new MalformedProxyHeaderException("v2 TLV cut short");
            }
            int type = b[i] & 0xff;
            int length = (b[i + 1] & 0xff) << 8 | b[i + 2] & 0xff;
            if (to - i - 3 < length) {
                throw new MalformedProxyHeaderException("v2 TLV longer than the header");
            }
            out.add(new ProxyHeader.Tlv(type, Arrays.copyOfRange(b, i + 3, i + 3 + length)));
            i += 3 + length;
        }
        return out;
    }

    /** {@code PP2_TYPE_SSL}: client flags (1 byte), verify result (4 bytes), then sub-TLVs. */
    private static ProxyTls ssl(byte[] v) throws MalformedProxyHeaderException {
        if (v.length < 5) {
            throw new MalformedProxyHeaderException("v2 SSL TLV shorter than 5 bytes");
        }
        int client = v[0] & 0xff;
        boolean verified = v[1] == 0 && v[2] == 0 && v[3] == 0 && v[4] == 0;
        String version = null;
        String cn = null;
        String cipher = null;
        String sigAlg = null;
        String keyAlg = null;
        for (ProxyHeader.Tlv sub : tlvs(v, 5, v.length)) {
            String text = new String(sub.value(), StandardCharsets.UTF_8);
            switch (sub.type()) {
                case SSL_VERSION -> version = text;
                case SSL_CN -> cn = text;
                case SSL_CIPHER -> cipher = text;
                case SSL_SIG_ALG -> sigAlg = text;
                case SSL_KEY_ALG -> keyAlg = text;
                default -> { } // another sub-TLV: kept in no field
            }
        }
        boolean cert = (client & 0x06) != 0;
        return new ProxyTls((client & 0x01) != 0, cert, cert && verified, version, cipher, cn, sigAlg, keyAlg);
    }

    private static InetAddress address(byte[] b, int from, int size) {
        try {
            return InetAddress.getByAddress(Arrays.copyOfRange(b, from, from + size));
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // 4 or 16 bytes are always an address
        }
    }

    private static int port(byte[] b, int at) {
        return (b[at] & 0xff) << 8 | b[at + 1] & 0xff;
    }
}
