package dev.weft.httpserver.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.config.AccessLogConfig;
import dev.weft.httpserver.testing.RawHttpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The {@code --access-log} options build the server's access log; without them it stays off. */
class CommandLineAccessLogTest {

    @TempDir
    Path dir;

    private static CommandLineOptions parse(String... args) throws Exception {
        return CommandLineOptions.parse(args, null);
    }

    @Test
    void theLogIsOffWithoutAnAccessLogOption() throws Exception {
        assertFalse(parse("-o", "info").accessLog().enabled());
    }

    @Test
    void accessLogOptionsSetPatternFileAndRotation() throws Exception {
        AccessLogConfig log = parse("--access-log-file", "logs/a.log", "--access-log-pattern", "common",
                "--access-log-rotate", "size", "--access-log-max-size", "10m", "--access-log-max-files", "7")
                .accessLog();
        assertTrue(log.enabled());
        assertEquals(Path.of("logs/a.log").toAbsolutePath().toString(), log.file());
        assertEquals("common", log.pattern());
        assertFalse(log.rotateDaily());
        assertEquals(10L << 20, log.maxFileSize());
        assertEquals(7, log.maxFiles());
        assertTrue(parse("--access-log").accessLog().enabled());
        assertEquals(null, parse("--access-log").accessLog().file());
    }

    @Test
    void aBadPatternOrSizeIsAUsageError() {
        var e = assertThrows(CommandLineOptions.UsageException.class,
                () -> parse("--access-log-pattern", "%h %Z"));
        assertTrue(e.getMessage().contains("'%Z'"), e.getMessage());
        assertThrows(CommandLineOptions.UsageException.class, () -> parse("--access-log-max-size", "lots"));
        assertThrows(CommandLineOptions.UsageException.class, () -> parse("--access-log-rotate", "hourly"));
    }

    @Test
    void theServerWritesTheFileTheOptionsName() throws Exception {
        Files.writeString(dir.resolve("a.txt"), "hello");
        Path file = dir.resolve("logs/access.log");
        CommandLineOptions options = parse("-p", "0", "-d", dir.toString(), "-o", "none",
                "--access-log-file", file.toString());
        HttpServer server = Main.start(options, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8));
        try (RawHttpClient c = RawHttpClient.connect(server.getAddress().getPort())) {
            assertEquals(200, c.send(RawHttpClient.get("/a.txt")).readResponse().status());
        } finally {
            server.stop(5);
        }
        String log = Files.readString(file);
        assertTrue(log.contains("\"GET /a.txt HTTP/1.1\" 200 5 \"-\" \"-\"\n"), log);
    }
}
