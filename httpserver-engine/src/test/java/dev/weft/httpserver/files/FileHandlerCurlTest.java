package dev.weft.httpserver.files;

import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link FileHandler} over a real socket, driven by curl. */
class FileHandlerCurlTest {

    private static final String SECRET = "top secret outside the root";
    private static Path base;
    private static Path root;
    private static TestServer server;

    @BeforeAll
    static void serve() throws IOException {
        base = Files.createTempDirectory("weft-files");
        root = Files.createDirectory(base.resolve("www"));
        Files.writeString(base.resolve("secret.txt"), SECRET);
        Files.writeString(root.resolve("a.txt"), "hello world\n");
        Files.writeString(root.resolve("style.css"), "body{}");
        Files.writeString(root.resolve("we<ird> & \"n\".html"), "<b>weird</b>");
        Files.writeString(root.resolve(".hidden"), SECRET);
        Files.createDirectories(root.resolve("sub"));
        Files.writeString(root.resolve("sub/index.html"), "<h1>sub index</h1>");
        Files.createDirectories(root.resolve("empty dir"));
        Files.write(root.resolve("empty.bin"), new byte[0]);
        Files.createSymbolicLink(root.resolve("link.txt"), root.resolve("a.txt"));
        Files.createSymbolicLink(root.resolve("outside"), base);
        server = TestServer.builder()
                .handle("/", FileHandler.builder(root).build())
                .handle("/static", FileHandler.builder(root.resolve("sub")).build())
                .start();
    }

    @AfterAll
    static void stop() throws IOException {
        server.close();
        try (var walk = Files.walk(base)) {
            for (Path p : walk.sorted((x, y) -> y.compareTo(x)).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** A curl response: status line, header fields (lower-case names), body. */
    record Response(int status, List<String> fields, String body, String raw) {
        String header(String name) {
            String prefix = name.toLowerCase(Locale.ROOT) + ":";
            return fields.stream().filter(f -> f.toLowerCase(Locale.ROOT).startsWith(prefix))
                    .map(f -> f.substring(prefix.length()).strip()).findFirst().orElse(null);
        }
    }

    static Response curl(String... args) {
        List<String> cmd = new ArrayList<>(List.of(ExternalTools.require("curl").toString(), "-s", "-i",
                "--max-time", "20"));
        cmd.addAll(List.of(args));
        ExternalTools.Result r = ExternalTools.run(cmd, Duration.ofSeconds(30));
        assertEquals(0, r.exit(), r.describe());
        String out = r.stdout();
        int end = out.indexOf("\r\n\r\n");
        String head = end < 0 ? out : out.substring(0, end);
        String[] lines = head.split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        return new Response(status, List.of(lines).subList(1, lines.length), end < 0 ? "" : out.substring(end + 4), out);
    }

    private static String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    @Test
    void fileIsServedWithTypeLengthValidatorsAndAcceptRanges() {
        Response r = curl(url("/a.txt"));
        assertEquals(200, r.status(), r.raw());
        assertEquals("hello world\n", r.body());
        assertEquals("text/plain; charset=utf-8", r.header("Content-Type"));
        assertEquals("12", r.header("Content-Length"));
        assertEquals("bytes", r.header("Accept-Ranges"));
        assertTrue(r.header("ETag").matches("\"[0-9a-f-]+\""), r.raw());
        assertTrue(r.header("Last-Modified").endsWith(" GMT"), r.raw());
        assertEquals("text/css; charset=utf-8", curl(url("/style.css")).header("Content-Type"));
        Response empty = curl(url("/empty.bin"));
        assertEquals(200, empty.status());
        assertEquals("0", empty.header("Content-Length"));
        assertEquals("application/octet-stream", empty.header("Content-Type"));
    }

    @Test
    void headGivesTheHeadersWithoutABody() {
        Response r = curl("-I", url("/a.txt"));
        assertEquals(200, r.status());
        assertEquals("12", r.header("Content-Length"));
        assertEquals("", r.body());
    }

    @Test
    void curlRangeGets206AndSeveralRangesGetMultipartByteranges() {
        Response one = curl("-r", "0-4", url("/a.txt"));
        assertEquals(206, one.status(), one.raw());
        assertEquals("hello", one.body());
        assertEquals("bytes 0-4/12", one.header("Content-Range"));
        Response suffix = curl("-r", "-6", url("/a.txt"));
        assertEquals("world\n", suffix.body());
        Response two = curl("-r", "0-1,6-7", url("/a.txt"));
        assertEquals(206, two.status(), two.raw());
        Matcher m = Pattern.compile("multipart/byteranges; boundary=(\\S+)").matcher(two.header("Content-Type"));
        assertTrue(m.matches(), two.raw());
        String b = m.group(1);
        assertEquals("\r\n--" + b + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Range: bytes 0-1/12\r\n\r\nhe"
                + "\r\n--" + b + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Range: bytes 6-7/12\r\n\r\nwo"
                + "\r\n--" + b + "--\r\n", two.body());
        assertEquals(String.valueOf(two.body().length()), two.header("Content-Length"));
    }

    @Test
    void unsatisfiableRangeGets416WithTheLength() {
        Response r = curl("-r", "100-200", url("/a.txt"));
        assertEquals(416, r.status(), r.raw());
        assertEquals("bytes */12", r.header("Content-Range"));
        Response invalid = curl("-H", "Range: bytes=5-1", url("/a.txt"));
        assertEquals(200, invalid.status(), "an invalid range is ignored");
        Response head = curl("-I", "-H", "Range: bytes=0-1", url("/a.txt"));
        assertEquals(200, head.status(), "Range is defined for GET only");
    }

    @Test
    void conditionalRequestsGet304And412() {
        Response first = curl(url("/a.txt"));
        String etag = first.header("ETag");
        String lastModified = first.header("Last-Modified");
        Response inm = curl("-H", "If-None-Match: " + etag, url("/a.txt"));
        assertEquals(304, inm.status(), inm.raw());
        assertEquals(etag, inm.header("ETag"));
        assertEquals("", inm.body());
        Response z = curl("-z", lastModified, url("/a.txt"));
        assertEquals(304, z.status(), "curl -z sends If-Modified-Since: " + z.raw());
        Response older = curl("-z", "Sun, 06 Nov 1994 08:49:37 GMT", url("/a.txt"));
        assertEquals(200, older.status());
        Response ifMatch = curl("-H", "If-Match: \"nope\"", url("/a.txt"));
        assertEquals(412, ifMatch.status(), ifMatch.raw());
        Response unmodified = curl("-H", "If-Unmodified-Since: Sun, 06 Nov 1994 08:49:37 GMT", url("/a.txt"));
        assertEquals(412, unmodified.status());
        Response ifRangeOk = curl("-r", "0-4", "-H", "If-Range: " + etag, url("/a.txt"));
        assertEquals(206, ifRangeOk.status());
        Response ifRangeStale = curl("-r", "0-4", "-H", "If-Range: \"stale\"", url("/a.txt"));
        assertEquals(200, ifRangeStale.status());
        assertEquals("hello world\n", ifRangeStale.body());
    }

    @Test
    void traversalHiddenFilesAndSymlinksAreNotServed() {
        List<String> attempts = List.of("/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt",
                "/sub/../../secret.txt", "/sub/..%2f..%2fsecret.txt", "/%2e%2e%2fsecret.txt", "/..%5csecret.txt",
                "/sub/%2e%2e/%2e%2e/secret.txt", "/a.txt%00", "/a.txt%00.html", "/.hidden", "/%2ehidden",
                "/link.txt", "/outside/secret.txt", "/outside", "//secret.txt", "/sub//index.html", "/a.txt/",
                "/%C0%AE%C0%AE/secret.txt", "/%c3%28", "/static/../secret.txt", "/static/%2e%2e/a.txt", "/./a.txt",
                "/%2e/a.txt");
        for (String path : attempts) {
            Response r = curl("--path-as-is", url(path));
            assertTrue(r.status() == 404 || r.status() == 400, path + " -> " + r.raw());
            assertFalse(r.body().contains(SECRET) || r.body().contains("hello world"), path + " -> " + r.raw());
        }
    }

    @Test
    void otherMethodsGet405WithAllow() {
        for (String method : List.of("POST", "PUT", "DELETE", "OPTIONS", "PATCH")) {
            Response r = curl("-X", method, url("/a.txt"));
            assertEquals(405, r.status(), method);
            assertEquals("GET, HEAD", r.header("Allow"), method);
        }
    }

    @Test
    void directoriesRedirectToTheSlashServeTheIndexOrAnEscapedListing() {
        Response redirect = curl(url("/sub?x=1"));
        assertEquals(301, redirect.status());
        assertEquals("/sub/?x=1", redirect.header("Location"));
        assertEquals("<h1>sub index</h1>", curl(url("/sub/")).body());
        assertEquals("<h1>sub index</h1>", curl(url("/static/")).body(), "a handler on a context below /");
        assertEquals(301, curl(url("/static")).status());
        Response listing = curl(url("/"));
        assertEquals(200, listing.status());
        assertEquals("text/html; charset=utf-8", listing.header("Content-Type"));
        String html = listing.body();
        assertTrue(html.contains("<a href=\"we%3Cird%3E%20%26%20%22n%22.html\">we&lt;ird&gt; &amp; &quot;n&quot;.html</a>"),
                html);
        assertTrue(html.contains("<a href=\"empty%20dir/\">empty dir/</a>"), html);
        assertTrue(html.contains("<a href=\"a.txt\">a.txt</a>"), html);
        assertFalse(html.contains("hidden") || html.contains("link.txt") || html.contains("outside"), html);
        assertTrue(curl(url("/empty%20dir/")).body().contains("<a href=\"../\">../</a>"));
        assertEquals("<b>weird</b>", curl(url("/we%3Cird%3E%20%26%20%22n%22.html")).body());
    }

    @Test
    void largeFileIsStreamedIntact() throws Exception {
        Path big = root.resolve("big.bin");
        MessageDigest expected = MessageDigest.getInstance("SHA-256");
        byte[] chunk = new byte[1024 * 1024];
        try (OutputStream out = Files.newOutputStream(big)) {
            for (int i = 0; i < 48; i++) {
                for (int j = 0; j < chunk.length; j++) {
                    chunk[j] = (byte) (i * 31 + j * 7);
                }
                out.write(chunk);
                expected.update(chunk);
            }
        }
        Path downloaded = base.resolve("downloaded.bin");
        ExternalTools.Result r = ExternalTools.run(List.of(ExternalTools.require("curl").toString(), "-s", "-o",
                downloaded.toString(), "-w", "%{http_code} %{size_download}", url("/big.bin")), Duration.ofSeconds(60));
        assertEquals("200 " + 48 * 1024 * 1024, r.stdout(), r.describe());
        MessageDigest actual = MessageDigest.getInstance("SHA-256");
        actual.update(Files.readAllBytes(downloaded));
        assertEquals(HexFormat.of().formatHex(expected.digest()), HexFormat.of().formatHex(actual.digest()));
        Response tail = curl("-r", "-3", url("/big.bin"));
        assertEquals(3, tail.body().getBytes(StandardCharsets.ISO_8859_1).length);
        Files.delete(downloaded);
        Files.delete(big);
    }
}
