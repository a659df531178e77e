package dev.weft.httpserver.http1;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** {@link HeaderNames#normalize}: the JDK's key form, one shared string for the common names in any case. */
class HeaderNamesTest {

    @ParameterizedTest
    @CsvSource({
            "host, Host",
            "HOST, Host",
            "content-length, Content-length",
            "Content-Length, Content-length",
            "sec-ch-ua-platform, Sec-ch-ua-platform",
            "Upgrade-Insecure-Requests, Upgrade-insecure-requests",
            "te, Te",
            "ACCESS-CONTROL-REQUEST-HEADERS, Access-control-request-headers",
    })
    void aCommonNameInAnyCaseIsTheSharedKey(String wire, String key) {
        String first = normalize(wire);
        assertEquals(key, first);
        assertSame(first, normalize(wire.toLowerCase(Locale.ROOT)));
        assertSame(first, normalize(wire.toUpperCase(Locale.ROOT)));
    }

    @ParameterizedTest
    @CsvSource({
            "x-custom-header, X-custom-header",
            "X-CUSTOM-HEADER, X-custom-header",
            "a, A",
            "Z, Z",
            "9x, 9x",
            // one byte away from a common name, or the same hash step (bit 5) without being the same byte
            "hosts, Hosts",
            "hos, Hos",
            "Host^, Host^",
            "Host~, Host~",
            "Accept_encoding, Accept_encoding",
            "Accept-encodinG2, Accept-encoding2",
            "!#$%&*+-.^_`|~, !#$%&*+-.^_`|~",
    })
    void anyOtherNameIsPutInKeyForm(String wire, String key) {
        assertEquals(key, normalize(wire));
    }

    private static String normalize(String name) {
        byte[] b = ("  " + name + ":").getBytes(StandardCharsets.ISO_8859_1);
        return HeaderNames.normalize(b, 2, 2 + name.length());
    }
}
