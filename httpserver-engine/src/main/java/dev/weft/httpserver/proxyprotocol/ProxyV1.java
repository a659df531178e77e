package dev.weft.httpserver.proxyprotocol;

import dev.weft.httpserver.net.AddressRange;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Parses a version 1 (text) header: {@code PROXY TCP4|TCP6 src dst srcport dstport\r\n}, or
 * {@code PROXY UNKNOWN} followed by anything up to {@code \r\n}; at most {@link #MAX_LENGTH} bytes.
 */
final class ProxyV1 {

    /** Longest v1 header, its CRLF included. */
    static final int MAX_LENGTH = 107;

    private ProxyV1() {
    }

    /** The header in {@code line[0..length)}, which ends with CRLF. */
    static ProxyHeader parse(byte[] line, int length) throws MalformedProxyHeaderException {
        if (length < 8 || line[length - 2] != '\r' || line[length - 1] != '\n') {
            throw new MalformedProxyHeaderException("v1 header not ended by CRLF");
        }
        for (int i = 0; i < length - 2; i++) {
            if (line[i] < 0x20 || line[i] > 0x7e) {
                throw new MalformedProxyHeaderException("v1 header with a control or non-ASCII byte");
            }
        }
        String text = new String(line, 0, length - 2, StandardCharsets.US_ASCII);
        if (!text.startsWith("PROXY ")) {
            throw new MalformedProxyHeaderException("v1 header without PROXY");
        }
        if (text.equals("PROXY UNKNOWN") || text.startsWith("PROXY UNKNOWN ")) {
            return new ProxyHeader(1, null, null, List.of(), null);
        }
        String[] f = text.split(" ", -1);
        if (f.length != 6 || !f[1].equals("TCP4") && !f[1].equals("TCP6")) {
            throw new MalformedProxyHeaderException("v1 header not TCP4, TCP6 or UNKNOWN with four fields");
        }
        boolean v6 = f[1].equals("TCP6");
        InetAddress src = address(f[2], v6);
        InetAddress dst = address(f[3], v6);
        return new ProxyHeader(1, new InetSocketAddress(src, port(f[4])), new InetSocketAddress(dst, port(f[5])),
                List.of(), null);
    }

    private static InetAddress address(String s, boolean v6) throws MalformedProxyHeaderException {
        if (!AddressRange.isLiteral(s) || v6 != (s.indexOf(':') >= 0)) {
            throw new MalformedProxyHeaderException("v1 header with a bad address");
        }
        try {
            return InetAddress.getByName(s); // a literal: no lookup
        } catch (UnknownHostException e) {
            throw new MalformedProxyHeaderException("v1 header with a bad address");
        }
    }

    /** A decimal port without leading zeros, 0 to 65535. */
    private static int port(String s) throws MalformedProxyHeaderException {
        if (s.isEmpty() || s.length() > 5 || s.length() > 1 && s.charAt(0) == '0') {
            throw new MalformedProxyHeaderException("v1 header with a bad port");
        }
        int p = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw new MalformedProxyHeaderException("v1 header with a bad port");
            }
            p = p * 10 + (c - '0');
        }
        if (p > 65535) {
            throw new MalformedProxyHeaderException("v1 header with a bad port");
        }
        return p;
    }
}
