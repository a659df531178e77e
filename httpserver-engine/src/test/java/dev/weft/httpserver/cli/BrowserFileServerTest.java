package dev.weft.httpserver.cli;

import dev.weft.httpserver.testing.ExternalTools;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Headless Chromium (Debian's, driven by playwright-core) browsing the command-line server: a directory listing,
 * then a file through its link, over {@code --tls --http2} and over cleartext.
 */
class BrowserFileServerTest {

    private static Path dir;

    @BeforeAll
    static void files() throws IOException {
        dir = Files.createTempDirectory("weft-browse");
        Files.createDirectory(dir.resolve("docs"));
        Files.writeString(dir.resolve("docs/read me & <go>.txt"), "Grüße from Weft\n");
        Files.writeString(dir.resolve("docs/.secret"), "hidden");
    }

    @AfterAll
    static void clean() throws IOException {
        delete(dir);
    }

    private static void delete(Path p) throws IOException {
        try (var walk = Files.walk(p)) {
            for (Path x : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(x);
            }
        }
    }

    private static Map<String, String> browse(String url) throws IOException {
        Path node = ExternalTools.require("node");
        Path chromium = Path.of("/usr/bin/chromium");
        assertTrue(Files.isExecutable(chromium), "/usr/bin/chromium is required; " + ExternalTools.INSTALL_HINT);
        Path modules = ExternalTools.searchPath().get(0).resolveSibling("node").resolve("node_modules");
        assertTrue(Files.isDirectory(modules.resolve("playwright-core")),
                "playwright-core missing in " + modules + "; " + ExternalTools.INSTALL_HINT);
        Path script = Path.of("src/test/resources/cli/browse.js").toAbsolutePath();
        Path profile = Files.createTempDirectory("weft-chromium");
        try {
            ExternalTools.Result r = ExternalTools.run(List.of("env", "NODE_PATH=" + modules, node.toString(),
                    script.toString(), url, "read me & <go>.txt", profile.toString()), Duration.ofSeconds(90));
            assertEquals(0, r.exit(), r.describe());
            Map<String, String> seen = new HashMap<>();
            for (String line : r.stdout().split("\n")) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    seen.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
            return seen;
        } finally {
            delete(profile);
        }
    }

    private static void checkPages(Map<String, String> seen, String url, String protocol) {
        assertEquals("200", seen.get("listingStatus"), seen.toString());
        assertEquals("\"Directory listing for /docs/\"", seen.get("title"), seen.toString());
        assertEquals("[\"../ -> ../\",\"read me & <go>.txt -> read%20me%20%26%20%3Cgo%3E.txt\"]", seen.get("links"),
                "the hidden file is not listed; names escaped, links encoded");
        assertEquals("200", seen.get("fileStatus"), seen.toString());
        assertEquals("\"" + url + "read%20me%20%26%20%3Cgo%3E.txt\"", seen.get("fileUrl"));
        assertEquals("\"text/plain; charset=utf-8\"", seen.get("fileContentType"));
        assertEquals("\"Grüße from Weft\"", seen.get("fileText").replace("\\n", ""), seen.toString());
        assertEquals("\"" + protocol + "\"", seen.get("listingProtocol"), seen.toString());
        assertEquals("\"" + protocol + "\"", seen.get("fileProtocol"), seen.toString());
    }

    @Test
    void chromiumBrowsesTheListingAndAFileOverTlsWithH2() throws Exception {
        try (CliProcess p = CliProcess.start("-p", "0", "-d", dir.toString(), "--tls", "--http2", "-o", "none")) {
            String url = p.awaitUrl() + "docs/";
            checkPages(browse(url), url, "h2");
        }
    }

    @Test
    void chromiumBrowsesTheListingAndAFileOverCleartext() throws Exception {
        try (CliProcess p = CliProcess.start("-p", "0", "-d", dir.toString(), "-o", "none")) {
            String url = p.awaitUrl() + "docs/";
            checkPages(browse(url), url, "http/1.1");
        }
    }
}
