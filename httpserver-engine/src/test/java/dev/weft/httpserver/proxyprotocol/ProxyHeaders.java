package dev.weft.httpserver.proxyprotocol;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/** Builds PROXY protocol v2 headers byte by byte, for tests. */
public final class ProxyHeaders {

    /** The v2 signature. */
    public static final byte[] SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    private ProxyHeaders() {
    }

    /** A v2 header: command 0 (LOCAL) or 1 (PROXY), TCP over IPv4 or IPv6 by the addresses, then {@code tlvs}. */
    public static byte[] v2(int command, InetSocketAddress src, InetSocketAddress dst, byte[] tlvs) {
        ByteArrayOutputStream addresses = new ByteArrayOutputStream();
        int family = 0;
        if (src != null) {
            byte[] s = src.getAddress().getAddress();
            family = s.length == 4 ? 0x11 : 0x21;
            addresses.writeBytes(s);
            addresses.writeBytes(dst.getAddress().getAddress());
            addresses.writeBytes(new byte[] {(byte) (src.getPort() >> 8), (byte) src.getPort()});
            addresses.writeBytes(new byte[] {(byte) (dst.getPort() >> 8), (byte) dst.getPort()});
        }
        addresses.writeBytes(tlvs);
        int length = addresses.size();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(SIGNATURE);
        out.write(0x20 | command);
        out.write(family);
        out.write(length >> 8);
        out.write(length);
        out.writeBytes(addresses.toByteArray());
        return out.toByteArray();
    }

    /** One TLV. */
    public static byte[] tlv(int type, byte[] value) {
        byte[] b = new byte[3 + value.length];
        b[0] = (byte) type;
        b[1] = (byte) (value.length >> 8);
        b[2] = (byte) value.length;
        System.arraycopy(value, 0, b, 3, value.length);
        return b;
    }

    /** A {@code PP2_TYPE_SSL} TLV: client flags, verify result 0, and version, cipher and CN sub-TLVs. */
    public static byte[] ssl(int client, String version, String cipher, String cn) {
        ByteArrayOutputStream v = new ByteArrayOutputStream();
        v.write(client);
        v.writeBytes(new byte[4]);
        v.writeBytes(tlv(0x21, version.getBytes(StandardCharsets.US_ASCII)));
        v.writeBytes(tlv(0x23, cipher.getBytes(StandardCharsets.US_ASCII)));
        if (cn != null) {
            v.writeBytes(tlv(0x22, cn.getBytes(StandardCharsets.UTF_8)));
        }
        return tlv(0x20, v.toByteArray());
    }

    /** {@code host:port} as an address, no lookup for a literal. */
    public static InetSocketAddress at(String literal, int port) {
        try {
            return new InetSocketAddress(InetAddress.getByName(literal), port);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Concatenation. */
    public static byte[] join(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
