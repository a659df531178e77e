package dev.weft.httpserver.proxyprotocol;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;

import static dev.weft.httpserver.proxyprotocol.ProxyHeaders.at;
import static dev.weft.httpserver.proxyprotocol.ProxyHeaders.join;
import static dev.weft.httpserver.proxyprotocol.ProxyHeaders.ssl;
import static dev.weft.httpserver.proxyprotocol.ProxyHeaders.tlv;
import static dev.weft.httpserver.proxyprotocol.ProxyHeaders.v2;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Table-driven: PROXY protocol v1 and v2 headers, valid and not, read as a connection would present them. */
class ProxyHeaderParsingTest {

    @Test
    void v1Tcp4GivesBothAddresses() throws IOException {
        ProxyHeader h = read("PROXY TCP4 192.0.2.1 198.51.100.2 56324 443\r\nGET /");

        assertEquals(1, h.version());
        assertEquals(at("192.0.2.1", 56324), h.source());
        assertEquals(at("198.51.100.2", 443), h.destination());
    }

    @Test
    void v1Tcp6GivesBothAddresses() throws IOException {
        ProxyHeader h = read("PROXY TCP6 2001:db8::1 2001:db8::2 65535 0\r\n");

        assertEquals(at("2001:db8::1", 65535), h.source());
        assertEquals(at("2001:db8::2", 0), h.destination());
    }

    @ParameterizedTest
    @ValueSource(strings = {"PROXY UNKNOWN\r\n", "PROXY UNKNOWN ffff:f...f:ffff ffff:f...f:ffff 65535 65535\r\n"})
    void v1UnknownKeepsTheSocketsAddresses(String header) throws IOException {
        ProxyHeader h = read(header);

        assertNull(h.source());
        assertNull(h.destination());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "PROXY TCP4 192.0.2.1 198.51.100.2 56324\r\n", "PROXY TCP4 192.0.2.1 198.51.100.2 56324 443\n",
            "PROXY TCP4 192.0.2.1  198.51.100.2 56324 443\r\n", "PROXY TCP4 2001:db8::1 198.51.100.2 1 2\r\n",
            "PROXY TCP6 192.0.2.1 198.51.100.2 1 2\r\n", "PROXY TCP4 192.0.2.1 198.51.100.2 070 443\r\n",
            "PROXY TCP4 192.0.2.1 198.51.100.2 65536 443\r\n", "PROXY TCP4 host.example 198.51.100.2 1 2\r\n",
            "PROXY UDP4 192.0.2.1 198.51.100.2 1 2\r\n", "proxy TCP4 192.0.2.1 198.51.100.2 1 2\r\n",
            "GET / HTTP/1.1\r\n\r\n", "PROXY TCP4 192.0.2.1 198.51.100.2 1 2\r\u0000\n"})
    void malformedV1IsRefused(String header) {
        assertThrows(MalformedProxyHeaderException.class, () -> read(header));
    }

    @Test
    void v1LongerThan107BytesIsRefused() {
        String header = "PROXY UNKNOWN " + "x".repeat(92) + "\r\n";
        assertEquals(108, header.length());

        assertThrows(MalformedProxyHeaderException.class, () -> read(header));
    }

    @Test
    void v2ProxyOverIpv4WithTlvsGivesAddressesAndTlsFacts() throws IOException {
        byte[] tlvs = join(tlv(0x02, "example.com".getBytes(StandardCharsets.US_ASCII)),
                ssl(0x07, "TLSv1.3", "TLS_AES_256_GCM_SHA384", "client.example"), tlv(0x04, new byte[3]));
        ProxyHeader h = read(join(v2(1, at("192.0.2.1", 1234), at("198.51.100.2", 443), tlvs), bytes("GET")));

        assertEquals(2, h.version());
        assertEquals(at("192.0.2.1", 1234), h.source());
        assertEquals(at("198.51.100.2", 443), h.destination());
        assertEquals(3, h.tlvs().size());
        assertArrayEquals(bytes("example.com"), h.tlv(ProxyHeader.Tlv.AUTHORITY));
        assertEquals(new ProxyTls(true, true, true, "TLSv1.3", "TLS_AES_256_GCM_SHA384", "client.example", null,
                null), h.tls());
    }

    @Test
    void v2ProxyOverIpv6WithoutTlvs() throws IOException {
        ProxyHeader h = read(v2(1, at("2001:db8::1", 1), at("2001:db8::2", 2), new byte[0]));

        assertEquals(at("2001:db8::1", 1), h.source());
        assertTrue(h.tlvs().isEmpty());
        assertNull(h.tls());
    }

    @Test
    void v2LocalKeepsTheSocketsAddressesButItsTlvs() throws IOException {
        ProxyHeader h = read(v2(0, at("192.0.2.1", 1), at("192.0.2.2", 2), tlv(0x05, bytes("id"))));

        assertNull(h.source());
        assertArrayEquals(bytes("id"), h.tlv(ProxyHeader.Tlv.UNIQUE_ID));
    }

    @Test
    void v2UnspecifiedFamilyKeepsTheSocketsAddresses() throws IOException {
        assertNull(read(v2(1, null, null, new byte[0])).source());
    }

    @Test
    void malformedV2IsRefused() {
        byte[] good = v2(1, at("192.0.2.1", 1), at("192.0.2.2", 2), new byte[0]);
        byte[] badVersion = good.clone();
        badVersion[12] = 0x11;
        byte[] badCommand = good.clone();
        badCommand[12] = 0x22;
        byte[] badFamily = good.clone();
        badFamily[13] = 0x41;
        byte[] shortAddresses = Arrays.copyOf(good, 16 + 6);
        shortAddresses[15] = 6;
        byte[] cutTlv = v2(1, at("192.0.2.1", 1), at("192.0.2.2", 2), new byte[] {0x02, 0x00, 0x09, 'a'});
        byte[] shortSsl = v2(1, at("192.0.2.1", 1), at("192.0.2.2", 2), tlv(0x20, new byte[] {1, 0}));
        byte[] tooLong = v2(1, at("192.0.2.1", 1), at("192.0.2.2", 2), tlv(0x04, new byte[4100]));
        byte[] badSignature = good.clone();
        badSignature[7] = 'q';
        for (byte[] b : new byte[][] {badVersion, badCommand, badFamily, shortAddresses, cutTlv, shortSsl, tooLong,
                badSignature}) {
            assertThrows(MalformedProxyHeaderException.class, () -> read(b));
        }
    }

    @Test
    void aTruncatedHeaderIsAnEndOfStream() {
        byte[] good = v2(1, at("192.0.2.1", 1), at("192.0.2.2", 2), new byte[0]);

        assertThrows(java.io.EOFException.class, () -> read(Arrays.copyOf(good, 20)));
    }

    private static ProxyHeader read(String header) throws IOException {
        return read(header.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Reads through {@link ProxyHeaderReader} from a socket whose input is {@code bytes}. */
    private static ProxyHeader read(byte[] bytes) throws IOException {
        InputStream in = new ByteArrayInputStream(bytes);
        Socket socket = new Socket() {
            @Override
            public InputStream getInputStream() {
                return in;
            }
        };
        ProxyHeader h = new ProxyHeaderReader(Duration.ofSeconds(5)).read(socket);
        return h;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
