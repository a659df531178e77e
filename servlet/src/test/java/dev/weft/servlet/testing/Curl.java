package dev.weft.servlet.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** curl as a test client: output, error output and exit code of one run. */
public record Curl(int exitCode, String out, String err) {

    private static final Path BINARY = Path.of("/usr/bin/curl");

    /** Runs {@code curl -sS} with {@code args}, stopping it after a generous time limit. */
    public static Curl run(String... args) throws IOException, InterruptedException {
        assertTrue(Files.isExecutable(BINARY), "curl is required (scripts/install-test-tools.sh installs it)");
        List<String> command = new ArrayList<>(List.of(BINARY.toString(), "-sS", "--max-time", "60"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        p.getOutputStream().close();
        byte[][] streams = new byte[2][];
        Thread errReader = Thread.ofVirtual().start(() -> {
            try {
                streams[1] = p.getErrorStream().readAllBytes();
            } catch (IOException e) {
                streams[1] = e.toString().getBytes(StandardCharsets.UTF_8);
            }
        });
        streams[0] = p.getInputStream().readAllBytes();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("curl did not finish: " + command);
        }
        errReader.join();
        return new Curl(p.exitValue(), new String(streams[0], StandardCharsets.UTF_8),
                new String(streams[1], StandardCharsets.ISO_8859_1));
    }

    /** Like {@link #run} but fails the test unless curl exits with 0. */
    public static Curl ok(String... args) throws IOException, InterruptedException {
        Curl c = run(args);
        if (c.exitCode() != 0) {
            throw new AssertionError("curl " + String.join(" ", args) + " exited with " + c.exitCode() + ": " + c.err());
        }
        return c;
    }
}
