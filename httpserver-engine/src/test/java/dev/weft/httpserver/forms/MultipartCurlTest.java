package dev.weft.httpserver.forms;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Uploads from {@code curl -F} read by {@link MultipartReader} and forms from {@code curl -d}, over a real socket. */
class MultipartCurlTest {

    /** Answers one line per part: name, file name, type, size, SHA-256; a FormException becomes its status. */
    private static void upload(HttpExchange exchange, MultipartLimits limits) throws IOException {
        StringBuilder out = new StringBuilder();
        try {
            MultipartReader reader = MultipartReader.of(exchange, limits);
            for (MultipartPart part; (part = reader.next()) != null; ) {
                MessageDigest sha = sha256();
                long size;
                try (InputStream in = new DigestInputStream(part.body(), sha)) {
                    size = in.transferTo(OutputStream.nullOutputStream());
                }
                out.append(part.name()).append(' ').append(part.filename().orElse("-")).append(' ')
                        .append(part.contentType()).append(' ').append(size).append(' ')
                        .append(HexFormat.of().formatHex(sha.digest())).append('\n');
            }
            TestServer.respond(exchange, 200, out.toString());
        } catch (FormException e) {
            TestServer.respond(exchange, e.statusCode(), e.getMessage() + "\n");
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ExternalTools.Result curl(String... args) {
        List<String> cmd = new ArrayList<>(List.of(ExternalTools.require("curl").toString(), "-s", "--max-time", "60",
                "-w", "\n%{http_code}"));
        cmd.addAll(List.of(args));
        ExternalTools.Result r = ExternalTools.run(cmd, Duration.ofSeconds(90));
        assertEquals(0, r.exit(), r.describe());
        return r;
    }

    @Test
    void curlFormUploadsIncludingALargeStreamedFileAreReadPartByPart() throws Exception {
        Path dir = Files.createTempDirectory("weft-upload");
        Path big = dir.resolve("big file.bin");
        MessageDigest expected = sha256();
        byte[] chunk = new byte[1024 * 1024];
        try (OutputStream out = Files.newOutputStream(big)) {
            for (int i = 0; i < 40; i++) {
                for (int j = 0; j < chunk.length; j++) {
                    chunk[j] = (byte) (j % 251 == 0 ? '\r' : j % 253 == 0 ? '\n' : i + j);
                }
                out.write(chunk);
                expected.update(chunk);
            }
        }
        Path small = dir.resolve("note.txt");
        Files.writeString(small, "héllo\r\n");
        MultipartLimits limits = MultipartLimits.builder().maxPartSize(48L << 20).maxTotalSize(64L << 20).build();
        try (TestServer server = TestServer.builder().handle("/upload", ex -> upload(ex, limits)).start()) {
            ExternalTools.Result r = curl("-F", "title=Quarterly report", "-F", "doc=@" + small + ";type=text/plain",
                    "-F", "data=@" + big, "http://127.0.0.1:" + server.port() + "/upload");
            List<String> lines = List.of(r.stdout().split("\n"));
            assertEquals("200", lines.get(lines.size() - 1), r.describe());
            assertEquals("title - text/plain 16 " + hex("Quarterly report"), lines.get(0), r.describe());
            assertEquals("doc note.txt text/plain " + "héllo\r\n".getBytes(StandardCharsets.UTF_8).length + " "
                    + hex("héllo\r\n"), lines.get(1), r.describe());
            assertEquals("data big file.bin application/octet-stream " + (40L << 20) + " "
                    + HexFormat.of().formatHex(expected.digest()), lines.get(2), r.describe());
        } finally {
            Files.deleteIfExists(big);
            Files.deleteIfExists(small);
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void uploadOverThePartLimitGets413AndTheServerKeepsServing() throws Exception {
        Path dir = Files.createTempDirectory("weft-upload");
        Path file = dir.resolve("two-mib.bin");
        Files.write(file, new byte[2 * 1024 * 1024]);
        MultipartLimits limits = MultipartLimits.builder().maxPartSize(1024 * 1024).build();
        try (TestServer server = TestServer.builder().handle("/upload", ex -> upload(ex, limits)).start()) {
            String url = "http://127.0.0.1:" + server.port() + "/upload";
            ExternalTools.Result r = curl("-F", "f=@" + file, url);
            assertTrue(r.stdout().endsWith("\n413"), r.describe());
            assertTrue(r.stdout().contains("larger than 1048576 bytes"), r.describe());
            ExternalTools.Result ok = curl("-F", "f=small", url);
            assertTrue(ok.stdout().endsWith("\n200"), ok.describe());
            ExternalTools.Result notMultipart = curl("-d", "a=1", url);
            assertTrue(notMultipart.stdout().endsWith("\n415"), notMultipart.describe());
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void curlUrlencodedFormAndQueryAreParsed() throws Exception {
        ServerConfig config = ServerConfig.defaults();
        try (TestServer server = TestServer.builder().config(config).handle("/form", ex -> {
            try {
                FormFields query = FormFields.query(ex, FormLimits.defaults());
                FormFields form = FormFields.readForm(ex, FormLimits.defaults());
                TestServer.respond(ex, 200, query.first("q").orElse("?") + "|" + form.all("name") + "|"
                        + form.first("note").orElse("?"));
            } catch (FormException e) {
                TestServer.respond(ex, e.statusCode(), e.getMessage());
            }
        }).start()) {
            String url = "http://127.0.0.1:" + server.port() + "/form?q=a%20b+c";
            ExternalTools.Result r = curl("--data-urlencode", "name=Zoë & co", "-d", "name=x+y",
                    "--data-urlencode", "note=1+1=2", url);
            assertEquals("a b c|[Zoë & co, x y]|1+1=2\n200", r.stdout(), r.describe());
            ExternalTools.Result bad = curl("-d", "name=%zz", url);
            assertTrue(bad.stdout().endsWith("\n400"), bad.describe());
        }
    }

    private static String hex(String s) {
        return HexFormat.of().formatHex(sha256().digest(s.getBytes(StandardCharsets.UTF_8)));
    }
}
