package dev.weft.httpserver.forwarded;

import dev.weft.httpserver.config.ForwardedConfig;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a handler of the plain engine sees of a request's origin, with and without trusted forwarded fields. */
class ForwardedFieldsExchangeTest {

    private static final String FIELDS = "X-Forwarded-For: 203.0.113.7, 127.0.0.1\r\nX-Forwarded-Proto: https\r\n"
            + "X-Forwarded-Host: shop.example:8443\r\nX-Forwarded-Prefix: /shop\r\n";

    @Test
    void fieldsFromATrustedProxyGiveTheClientsAddressSchemeAndHost() throws IOException {
        try (TestServer server = server("internal")) {
            String report = get(server, FIELDS);

            assertTrue(report.contains("remote=203.0.113.7:0\n"), report);
            assertTrue(report.contains("scheme=https\n"), report);
            assertTrue(report.contains("authority=shop.example:8443\n"), report);
            assertTrue(report.contains("prefix=/shop\n"), report);
        }
    }

    @Test
    void theSameFieldsFromAPeerThatIsNotTrustedChangeNothing() throws IOException {
        try (TestServer server = server("10.0.0.0/8, 2001:db8::/32")) {
            String report = get(server, FIELDS + "Forwarded: for=198.51.100.1;proto=https\r\n");

            assertTrue(report.contains("remote=127.0.0.1:"), report);
            assertTrue(report.contains("scheme=http\n"), report);
            assertTrue(report.contains("authority=null\n"), report);
        }
    }

    @Test
    void malformedFieldsAreIgnoredCountedAndTheConnectionServed() throws IOException {
        try (TestServer server = server("internal")) {
            String report = get(server, "Forwarded: for=\"[2001:db8::1\"\r\n");

            assertTrue(report.contains("remote=127.0.0.1:"), report);
            server.awaitStats(s -> s.protocolErrors().getOrDefault(ProtocolError.BAD_FORWARDED, 0L) == 1L);
        }
    }

    private static TestServer server(String trusted) throws IOException {
        ServerConfig config = ServerConfig.builder()
                .forwarded(ForwardedConfig.builder().enabled(true).trustedProxies(trusted).build()).build();
        return TestServer.builder().config(config).handle("/", OriginReport.handler()).start();
    }

    private static String get(TestServer server, String fields) throws IOException {
        try (RawHttpClient client = server.connect()) {
            RawHttpClient.Response r = client.send("GET /where HTTP/1.1\r\nHost: internal:8080\r\n" + fields
                    + "\r\n").readResponse();
            assertEquals(200, r.status());
            return new String(r.body(), StandardCharsets.UTF_8);
        }
    }
}
