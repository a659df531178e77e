package dev.weft.httpserver.cli;

import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command-line server started as a real process ({@code java -m}), checked with curl. */
class CommandLineServerTest {

    private static Path dir;

    @BeforeAll
    static void files() throws IOException {
        dir = Files.createTempDirectory("weft-cli");
        Files.writeString(dir.resolve("a.txt"), "hello from the cli\n");
    }

    @AfterAll
    static void clean() throws IOException {
        Files.deleteIfExists(dir.resolve("a.txt"));
        Files.deleteIfExists(dir);
    }

    /** curl's answer: "<http_version> <status>" then the body. */
    private static String curl(String... args) {
        List<String> cmd = new ArrayList<>(List.of(ExternalTools.require("curl").toString(), "-s", "--max-time", "20",
                "-w", "\n%{http_version} %{http_code}"));
        cmd.addAll(List.of(args));
        ExternalTools.Result r = ExternalTools.run(cmd, Duration.ofSeconds(30));
        return r.exit() == 0 ? r.stdout() : "curl exit " + r.exit();
    }

    @Test
    void helpIsPrintedAndMatchesTheDocumentation() throws Exception {
        for (String option : List.of("-h", "-?", "--help")) {
            try (CliProcess p = CliProcess.start(option)) {
                assertEquals(0, p.awaitExit());
                assertEquals(Main.HELP, String.join("\n", p.out()) + "\n");
            }
        }
        String page = Files.readString(Path.of("..", "docs", "handlers-and-cli.md"));
        assertTrue(page.contains("```text\n" + Main.HELP + "```"), "docs/handlers-and-cli.md shows --help as printed");
    }

    @Test
    void versionIsPrinted() throws Exception {
        for (String option : List.of("-version", "--version")) {
            try (CliProcess p = CliProcess.start(option)) {
                assertEquals(0, p.awaitExit());
                assertTrue(p.out().get(0).matches("weft-httpserver \\d+\\.\\d+\\.\\d+.*"), p.out().toString());
            }
        }
    }

    @Test
    void badCommandLinesExitWithAnErrorAndTheUsage() throws Exception {
        try (CliProcess p = CliProcess.start("--bogus")) {
            assertEquals(1, p.awaitExit());
            assertEquals("Error: unknown option: --bogus", p.err().get(0));
            assertTrue(p.err().get(1).startsWith("Usage: "), p.err().toString());
        }
        try (CliProcess p = CliProcess.start("-p", "99999")) {
            assertEquals(1, p.awaitExit());
            assertTrue(p.err().get(0).contains("invalid port: 99999"), p.err().toString());
        }
        try (CliProcess p = CliProcess.start("-o", "loud")) {
            assertEquals(1, p.awaitExit());
        }
        try (CliProcess p = CliProcess.start("-p")) {
            assertEquals(1, p.awaitExit());
        }
        try (CliProcess p = CliProcess.start("-p", "0", "-d", dir.resolve("missing").toString())) {
            assertEquals(2, p.awaitExit());
            assertTrue(p.err().get(0).startsWith("Error: server config failed: "), p.err().toString());
        }
    }

    @Test
    void servesOnLoopbackWithBannerAndOneLogLinePerRequest() throws Exception {
        try (CliProcess p = CliProcess.start("-p", "0", "-d", dir.toString())) {
            String url = p.awaitUrl();
            assertTrue(p.out().get(0).startsWith("Listening on loopback only"), p.out().toString());
            assertTrue(p.out().get(1).startsWith("Serving " + dir.toRealPath() + " and subdirectories at http://"),
                    p.out().toString());
            assertEquals("hello from the cli\n\n1.1 200", curl(url + "a.txt"));
            assertTrue(p.awaitLine("\"GET /a.txt HTTP/1.1\" 200 -").matches(
                    "127\\.0\\.0\\.1 - - \\[\\d\\d/\\w{3}/\\d{4}:\\d\\d:\\d\\d:\\d\\d [+-]\\d{4}] \"GET /a.txt HTTP/1.1\" 200 -"));
            assertTrue(curl("-X", "POST", url + "a.txt").endsWith("1.1 405"));
            assertNotEquals("2", curl("--http2-prior-knowledge", url + "a.txt").split(" ")[0],
                    "no h2c without --http2");
        }
    }

    @Test
    void verboseOutputShowsHeadersAndNoneShowsNothing() throws Exception {
        try (CliProcess p = CliProcess.start("-p", "0", "-d", dir.toString(), "-o", "verbose")) {
            String url = p.awaitUrl();
            curl("-H", "X-Probe: 42", url + "a.txt");
            p.awaitLine("> X-probe: 42");
            p.awaitLine("< Content-type: text/plain; charset=utf-8");
        }
        try (CliProcess p = CliProcess.start("-p", "0", "-d", dir.toString(), "-o", "none")) {
            String url = p.awaitUrl();
            // Two requests on one connection (connects: 1, then 0): the second is served only once the first
            // exchange has ended, request log included; stopping the process then yields all it printed.
            assertEquals("hello from the cli\n\n1hello from the cli\n\n0",
                    curl("-w", "\n%{num_connects}", url + "a.txt", url + "a.txt"));
            p.stop();
            assertFalse(p.out().stream().anyMatch(l -> l.contains("GET /a.txt")), p.out().toString());
        }
    }

    @Test
    void tlsWithHttp2UsesH2AndH2cWorksInCleartext() throws Exception {
        try (CliProcess p = CliProcess.start("-p", "0", "-d", dir.toString(), "--tls", "--http2", "-o", "none")) {
            String url = p.awaitUrl();
            assertTrue(url.startsWith("https://"), url);
            // printed after the URL's line: awaited, not expected at once
            String fingerprint = p.awaitLine("Self-signed certificate");
            assertTrue(fingerprint.matches("Self-signed certificate for localhost, SHA-256 "
                    + "fingerprint ([0-9A-F]{2}:){31}[0-9A-F]{2}"), fingerprint);
            assertEquals("hello from the cli\n\n2 200", curl("-k", "--http2", url + "a.txt"));
            assertEquals("hello from the cli\n\n1.1 200", curl("-k", "--http1.1", url + "a.txt"));
            String verified = curl("--resolve", "localhost:" + url.replaceAll(".*:(\\d+)/", "$1") + ":127.0.0.1",
                    url.replace("127.0.0.1", "localhost") + "a.txt");
            assertTrue(verified.startsWith("curl exit"), "a self-signed certificate is not trusted: " + verified);
        }
        try (CliProcess p = CliProcess.start("-p", "0", "-d", dir.toString(), "--http2", "-o", "none")) {
            assertEquals("hello from the cli\n\n2 200", curl("--http2-prior-knowledge", p.awaitUrl() + "a.txt"));
        }
    }

    @Test
    void keystoreOptionServesItsCertificate() throws Exception {
        TestCertificates certs = TestCertificates.get();
        Path keystore = certs.directory().resolve("server.p12");
        try (CliProcess p = CliProcess.start("-p", "0", "-d", dir.toString(), "--keystore", keystore.toString(),
                "--keystore-password", TestCertificates.PASSWORD, "--http2")) {
            String url = p.awaitUrl();
            String port = url.replaceAll(".*:(\\d+)/", "$1");
            assertEquals("hello from the cli\n\n2 200", curl("--cacert", certs.caPem().toString(), "--resolve",
                    "localhost:" + port + ":127.0.0.1", "https://localhost:" + port + "/a.txt"));
            p.stop(); // all it printed
            assertFalse(p.out().stream().anyMatch(l -> l.startsWith("Self-signed")), p.out().toString());
        }
        try (CliProcess p = CliProcess.start("-p", "0", "--keystore", keystore.toString(),
                "--keystore-password", "wrong")) {
            assertEquals(2, p.awaitExit());
        }
    }

    @Test
    void twoListenOptionsServeHttpAndHttpsTogether() throws Exception {
        try (CliProcess p = CliProcess.start("--listen", "http://127.0.0.1:0", "--listen", "https://127.0.0.1:0",
                "--http2", "-d", dir.toString(), "-o", "none")) {
            String http = p.awaitUrl();
            assertTrue(http.startsWith("http://"), http);
            String https = p.awaitLine(" at https://").replaceAll(".* at (https://[^/]+/) .*", "$1");
            assertEquals("hello from the cli\n\n1.1 200", curl(http + "a.txt"));
            assertEquals("hello from the cli\n\n2 200", curl("--http2-prior-knowledge", http + "a.txt"));
            assertEquals("hello from the cli\n\n2 200", curl("-k", "--http2", https + "a.txt"));
            assertFalse(p.out().get(0).startsWith("Listening on loopback only"), p.out().toString());
        }
        try (CliProcess p = CliProcess.start("--listen", "http://127.0.0.1:0", "-p", "0")) {
            assertEquals(1, p.awaitExit());
            assertTrue(p.err().get(0).contains("not with -b, -p or --tls"), p.err().toString());
        }
        try (CliProcess p = CliProcess.start("--listen", "127.0.0.1:8080")) {
            assertEquals(1, p.awaitExit());
            assertTrue(p.err().get(0).contains("--listen takes http://host:port"), p.err().toString());
        }
    }
}
