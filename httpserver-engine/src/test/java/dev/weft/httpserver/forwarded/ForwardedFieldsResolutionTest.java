package dev.weft.httpserver.forwarded;

import com.sun.net.httpserver.Headers;
import dev.weft.httpserver.config.ForwardedConfig;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.ServerStats;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Table-driven: what {@code Forwarded} (RFC 7239, its examples included) and {@code X-Forwarded-*} fields from a
 * trusted proxy resolve to, and that malformed or oversized ones are ignored and counted.
 */
class ForwardedFieldsResolutionTest {

    private static final InetSocketAddress PROXY = new InetSocketAddress("10.0.0.2", 40000);

    /** Fields ("Name: value" lines), then the client's host string, port, scheme and authority expected. */
    static Stream<Arguments> resolved() {
        return Stream.of(
                Arguments.of(new String[] {"Forwarded: for=192.0.2.60;proto=http;by=203.0.113.43"},
                        "192.0.2.60", 0, "http", null),
                Arguments.of(new String[] {"Forwarded: for=\"_gazonk\""}, "_gazonk", 0, "http", null),
                Arguments.of(new String[] {"Forwarded: For=\"[2001:db8:cafe::17]:4711\""},
                        "2001:db8:cafe:0:0:0:0:17", 4711, "http", null),
                Arguments.of(new String[] {"Forwarded: for=192.0.2.43, for=198.51.100.17"},
                        "198.51.100.17", 0, "http", null),
                Arguments.of(new String[] {"Forwarded: for=192.0.2.43,for=\"[2001:db8:cafe::17]\",for=unknown"},
                        "unknown", 0, "http", null),
                Arguments.of(new String[] {"Forwarded: for=192.0.2.43", "Forwarded: for=10.1.1.1;proto=https"},
                        "192.0.2.43", 0, "http", null),
                Arguments.of(new String[] {"Forwarded: for=\"203.0.113.9:_port\";proto=https;host=\"example.com:8443\""},
                        "203.0.113.9", 0, "https", "example.com:8443"),
                Arguments.of(new String[] {"Forwarded: proto=https;host=example.com"}, "10.0.0.2", 40000, "https",
                        "example.com"),
                Arguments.of(new String[] {"Forwarded: for=192.0.2.1", "X-Forwarded-For: 198.51.100.1"},
                        "192.0.2.1", 0, "http", null),
                Arguments.of(new String[] {"X-Forwarded-For: 203.0.113.7, 10.0.0.9"}, "203.0.113.7", 0, "http", null),
                Arguments.of(new String[] {"X-Forwarded-For: 203.0.113.7, 198.51.100.1, 10.0.0.9"},
                        "198.51.100.1", 0, "http", null),
                Arguments.of(new String[] {"X-Forwarded-For: 2001:db8::1", "X-Forwarded-Proto: https",
                        "X-Forwarded-Host: example.com", "X-Forwarded-Port: 8443"},
                        "2001:db8:0:0:0:0:0:1", 0, "https", "example.com:8443"),
                Arguments.of(new String[] {"X-Forwarded-For: 203.0.113.7:5555, 192.168.1.1",
                        "X-Forwarded-Proto: https, http"}, "203.0.113.7", 5555, "https", null),
                Arguments.of(new String[] {"X-Forwarded-Proto: HTTPS", "Host: example.org:80",
                        "X-Forwarded-Port: 443"}, "10.0.0.2", 40000, "https", "example.org:443"),
                Arguments.of(new String[] {"X-Forwarded-For: 10.0.0.7, 10.0.0.8"}, "10.0.0.7", 0, "http", null));
    }

    @ParameterizedTest
    @MethodSource("resolved")
    void trustedFieldsGiveTheClientSchemeAndHost(String[] fields, String client, int port, String scheme,
                                                   String authority) {
        ClientOrigin o = resolver("internal").resolve(PROXY, false, headers(fields));

        assertEquals(client, o.remoteAddress().getHostString());
        assertEquals(port, o.remoteAddress().getPort());
        assertEquals(scheme, o.scheme());
        assertEquals(authority, o.authority());
        assertTrue(o.forwarded());
    }

    static Stream<Arguments> malformed() {
        return Stream.<String[]>of(
                new String[] {"Forwarded: for="},
                new String[] {"Forwarded: for=\"[2001:db8::1\""},
                new String[] {"Forwarded: for=\"[2001:db8::1]:99999\""},
                new String[] {"Forwarded: for=1.2.3.4;for=5.6.7.8"},
                new String[] {"Forwarded: for=example.com"},
                new String[] {"Forwarded: for=\"1.2.3.4"},
                new String[] {"Forwarded: proto=gopher"},
                new String[] {"Forwarded: host=\"a b\""},
                new String[] {"Forwarded: " + "for=10.0.0.1,".repeat(20) + "for=10.0.0.1"},
                new String[] {"Forwarded: for=\"_" + "x".repeat(1100) + "\""},
                new String[] {"X-Forwarded-For: 203.0.113.7,,10.0.0.1"},
                new String[] {"X-Forwarded-For: not-an-address"},
                new String[] {"X-Forwarded-For: " + "10.0.0.1, ".repeat(20) + "10.0.0.1"},
                new String[] {"X-Forwarded-Proto: ftp"},
                new String[] {"X-Forwarded-Port: 0"},
                new String[] {"X-Forwarded-Host: evil/path"},
                new String[] {"X-Forwarded-Prefix: relative"},
                new String[] {"Forwarded: for=203.0.113.9:1234"}).map(f -> Arguments.of((Object) f));
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void malformedOrOversizedFieldsAreIgnoredAndCounted(String[] fields) {
        ServerStats stats = new ServerStats();
        ClientOrigin o = new OriginResolver(config("internal"), stats).resolve(PROXY, false, headers(fields));

        assertEquals(ClientOrigin.direct(PROXY, false), o);
        assertEquals(1L, stats.snapshot().protocolErrors().get(ProtocolError.BAD_FORWARDED));
    }

    @Test
    void fieldsFromAPeerThatIsNotATrustedProxyChangeNothing() {
        Headers h = headers(new String[] {"X-Forwarded-For: 203.0.113.7", "X-Forwarded-Proto: https",
                "Forwarded: for=192.0.2.1;proto=https"});
        InetSocketAddress stranger = new InetSocketAddress("203.0.113.50", 1234);

        assertEquals(ClientOrigin.direct(stranger, false), resolver("internal").resolve(stranger, false, h));
        assertEquals(ClientOrigin.direct(PROXY, true), resolver("192.168.0.0/16").resolve(PROXY, true, h));
    }

    @Test
    void offByDefault() {
        Headers h = headers(new String[] {"X-Forwarded-For: 203.0.113.7"});
        OriginResolver off = new OriginResolver(ForwardedConfig.defaults(), new ServerStats());

        assertFalse(off.resolve(PROXY, false, h).forwarded());
    }

    @Test
    void prefixIsAnAbsolutePathWithoutItsTrailingSlash() {
        ClientOrigin o = resolver("internal").resolve(PROXY, false,
                headers(new String[] {"X-Forwarded-Prefix: /app/"}));

        assertEquals("/app", o.prefix());
        assertNull(resolver("internal").resolve(PROXY, false, headers(new String[] {"X-Forwarded-Prefix: /"}))
                .prefix());
    }

    private static OriginResolver resolver(String trusted) {
        return new OriginResolver(config(trusted), new ServerStats());
    }

    private static ForwardedConfig config(String trusted) {
        return ForwardedConfig.builder().enabled(true).trustedProxies(trusted).build();
    }

    private static Headers headers(String[] fields) {
        Headers h = new Headers();
        for (String f : fields) {
            int colon = f.indexOf(':');
            h.add(f.substring(0, colon), f.substring(colon + 1).strip());
        }
        return h;
    }
}
