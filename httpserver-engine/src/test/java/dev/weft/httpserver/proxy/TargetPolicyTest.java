package dev.weft.httpserver.proxy;

import dev.weft.httpserver.net.AddressRange;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TargetPolicyTest {

    private static InetAddress ip(String literal) throws java.net.UnknownHostException {
        return InetAddress.getByName(literal);
    }

    @Test
    void specialPurposeBlocksCoverPrivateLoopbackLinkLocalAndMulticast() throws Exception {
        for (String a : List.of("10.1.2.3", "127.0.0.1", "172.31.255.255", "192.168.0.1", "169.254.169.254",
                "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fd00::1",
                "ff02::1", "2001:db8::1", "::ffff:127.0.0.1", "64:ff9b::a00:1")) {
            assertTrue(AddressRange.isSpecial(ip(a)), a);
        }
        for (String a : List.of("8.8.8.8", "172.32.0.1", "1.1.1.1", "2606:4700::1111", "100.128.0.1")) {
            assertFalse(AddressRange.isSpecial(ip(a)), a);
        }
    }

    @Test
    void cidrBlocksMatchByPrefix() throws Exception {
        AddressRange r = AddressRange.parse("10.1.0.0/16");
        assertTrue(r.contains(ip("10.1.255.7")));
        assertFalse(r.contains(ip("10.2.0.1")));
        assertFalse(r.contains(ip("::1")), "IPv4 block, IPv6 address");
        assertEquals("10.1.0.0/16", AddressRange.parse("10.1.200.3/16").toString(), "host bits cleared");
        assertTrue(AddressRange.parse("2001:db8::/32").contains(ip("2001:db8:ffff::1")));
        assertThrows(IllegalArgumentException.class, () -> AddressRange.parse("10.0.0.0/33"));
        assertThrows(IllegalArgumentException.class, () -> AddressRange.parse("example.com/8"));
    }

    @Test
    void invalidSettingsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> ProxyConfig.builder().allowedHosts("bad host").build());
        assertThrows(IllegalArgumentException.class, () -> ProxyConfig.builder().connectPorts("0").build());
        assertThrows(IllegalArgumentException.class, () -> ProxyConfig.builder().forwardPorts("90-80").build());
        assertThrows(IllegalArgumentException.class, () -> ProxyConfig.builder().viaName("a b").build());
        assertThrows(IllegalArgumentException.class,
                () -> ProxyConfig.builder().idleTimeout(java.time.Duration.ZERO).build());
    }

    @Test
    void defaultsAllowPublicAddressesOnSafePortsOnly() throws Exception {
        TargetPolicy p = new TargetPolicy(ProxyConfig.builder()
                .resolver(host -> List.of(ip("93.184.215.14"), ip("10.0.0.1"))).build());
        assertEquals(List.of(new InetSocketAddress(ip("93.184.215.14"), 80)), p.resolve("example.com", 80, false),
                "the private address of the name is dropped");
        assertThrows(TargetPolicy.Denied.class, () -> p.resolve("example.com", 25, false));
        assertThrows(TargetPolicy.Denied.class, () -> p.resolve("example.com", 80, true), "CONNECT: 443 only");
        assertEquals(1, p.resolve("example.com", 443, true).size());
        assertThrows(TargetPolicy.Denied.class, () -> p.resolve("[::1]", 443, true));
        assertThrows(TargetPolicy.Denied.class, () -> p.resolve("127.0.0.1", 8080, false));
    }

    @Test
    void suffixPatternsMatchSubdomainsOnly() throws Exception {
        TargetPolicy p = new TargetPolicy(ProxyConfig.builder().allowedHosts("*.example.com", "Exact.Org.")
                .resolver(host -> List.of(ip("93.184.215.14"))).build());
        assertEquals(1, p.resolve("a.b.example.com", 80, false).size());
        assertEquals(1, p.resolve("EXACT.org", 80, false).size());
        assertThrows(TargetPolicy.Denied.class, () -> p.resolve("example.com", 80, false));
        assertThrows(TargetPolicy.Denied.class, () -> p.resolve("badexample.com", 80, false));
        assertThrows(TargetPolicy.Denied.class, () -> p.resolve("93.184.215.14", 80, false),
                "a literal is not a name");
    }
}
