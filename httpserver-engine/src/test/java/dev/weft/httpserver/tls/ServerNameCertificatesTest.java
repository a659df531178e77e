package dev.weft.httpserver.tls;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.weft.httpserver.ServerNameCertificates;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.HostCertificates;
import dev.weft.httpserver.testing.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SNI on a plain engine server: openssl and curl get the certificate of the server name they ask for, over
 * HTTP/1.1 and HTTP/2, and the default one without a name or with an unknown one. {@code b.test} has an RSA key,
 * the others EC keys, so a name's certificate is chosen across key types too.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServerNameCertificatesTest {

    private static final Duration TOOL_LIMIT = Duration.ofSeconds(30);
    private static final char[] PASSWORD = TestCertificates.PASSWORD.toCharArray();
    private static final Pattern SUBJECT = Pattern.compile("(?m)^subject=.*?CN ?= ?([\\w.-]+)");

    @TempDir
    static Path dir;
    private static HostCertificates fallback;
    private static HostCertificates a;
    private static HostCertificates b;
    private static ServerNameCertificates certificates;
    private static HttpsServer server;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        List<HostCertificates> made = HostCertificates.generate(dir, List.of("default.test", "a.test", "b.test"),
                List.of("EC", "EC", "RSA"));
        fallback = made.get(0);
        a = made.get(1);
        b = made.get(2);
        certificates = ServerNameCertificates.builder(fallback.load(), PASSWORD)
                .add("a.test", a.load(), PASSWORD)
                .add("B.Test", b.load(), PASSWORD)
                .add("*.wild.test", a.load(), PASSWORD)
                .build();
        server = Weft.createHttpsServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        server.setHttpsConfigurator(new HttpsConfigurator(certificates.sslContext()));
        server.createContext("/", exchange -> {
            byte[] body = "hello".getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        port = server.getAddress().getPort();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void opensslGetsTheCertificateOfEachServerNameWhateverItsCase() {
        assertEquals("a.test", opensslSubject("-servername", "a.test"));
        assertEquals("b.test", opensslSubject("-servername", "b.test"));
        assertEquals("a.test", opensslSubject("-servername", "A.TEST"));
    }

    @Test
    void aWildcardMatchesOneLeadingLabelOnly() {
        assertEquals("a.test", opensslSubject("-servername", "x.wild.test"));
        assertEquals("default.test", opensslSubject("-servername", "x.y.wild.test"));
        assertEquals("default.test", opensslSubject("-servername", "wild.test"));
    }

    @Test
    void clientsWithoutAKnownServerNameGetTheDefaultCertificateAndUnknownNamesAreCounted() {
        long before = certificates.unknownNameHandshakes();

        assertEquals("default.test", opensslSubject("-noservername"));
        assertEquals(before, certificates.unknownNameHandshakes(), "no name is not an unknown name");
        assertEquals("default.test", opensslSubject("-servername", "c.test"));

        assertTrue(certificates.unknownNameHandshakes() > before, "the unknown name c.test is counted");
    }

    @Test
    void curlVerifiesEachNamesCertificateOverHttp1AndHttp2() {
        for (HostCertificates host : List.of(a, b)) {
            assertEquals("hello 1.1 200", curl(host.host(), host.pem(), "--http1.1"));
            assertEquals("hello 2 200", curl(host.host(), host.pem(), "--http2"));
        }
    }

    @Test
    void curlWithoutServerNameVerifiesTheDefaultCertificateOverHttp1AndHttp2() {
        // curl sends no SNI to an IP address; the default certificate names 127.0.0.1
        assertEquals("hello 1.1 200", curl("127.0.0.1", fallback.pem(), "--http1.1"));
        assertEquals("hello 2 200", curl("127.0.0.1", fallback.pem(), "--http2"));
    }

    @Test
    void curlTrustingOnlyAnotherNamesCertificateRejectsTheOneServed() {
        List<String> cmd = curlCommand("a.test", b.pem(), "--http2");
        ExternalTools.Result r = ExternalTools.run(cmd, TOOL_LIMIT);

        assertNotEquals(0, r.exit(), r::describe);
        assertEquals(60, r.exit(), () -> "curl's 'peer certificate cannot be authenticated': " + r.describe());
    }

    private static String opensslSubject(String... serverNameOptions) {
        List<String> cmd = new ArrayList<>(List.of(ExternalTools.require("openssl").toString(), "s_client",
                "-connect", "127.0.0.1:" + port, "-alpn", "h2,http/1.1"));
        cmd.addAll(List.of(serverNameOptions));
        ExternalTools.Result r = ExternalTools.run(cmd, TOOL_LIMIT);
        Matcher m = SUBJECT.matcher(r.stdout());
        assertTrue(m.find(), r::describe);
        return m.group(1);
    }

    private static String curl(String host, Path trusted, String version) {
        ExternalTools.Result r = ExternalTools.run(curlCommand(host, trusted, version), TOOL_LIMIT);
        assertEquals(0, r.exit(), r::describe);
        return r.stdout().strip();
    }

    private static List<String> curlCommand(String host, Path trusted, String version) {
        return List.of(ExternalTools.require("curl").toString(), "-sS", "--max-time", "20", version,
                "--resolve", host + ":" + port + ":127.0.0.1", "--cacert", trusted.toString(),
                "-w", " %{http_version} %{response_code}", "https://" + host + ":" + port + "/");
    }
}
