package dev.weft.spring.boot;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs {@code /usr/bin/curl} (built with nghttp2, so it speaks HTTP/2) as a test client. */
public final class Curl {

    private static final Path CURL = Path.of("/usr/bin/curl");

    private Curl() {
    }

    /**
     * One curl run.
     *
     * @param exitCode curl's exit code (0 on success)
     * @param body     what curl wrote to standard output
     * @param stderr   what curl wrote to standard error
     */
    public record Result(int exitCode, byte[] body, String stderr) {

        /** The output as UTF-8 text. */
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** Runs {@code curl -sS --max-time 60} with {@code args}; fails the test if curl is missing or hangs. */
    public static Result run(String... args) throws IOException, InterruptedException {
        assertTrue(Files.isExecutable(CURL), "curl is required (scripts/install-test-tools.sh installs it)");
        List<String> command = new ArrayList<>(List.of(CURL.toString(), "-sS", "--max-time", "60"));
        command.addAll(List.of(args));
        Path out = Files.createTempFile("curl", ".out");
        Path err = Files.createTempFile("curl", ".err");
        try {
            Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .start();
            process.getOutputStream().close();
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("curl timed out: " + command);
            }
            return new Result(process.exitValue(), Files.readAllBytes(out),
                    Files.readString(err, StandardCharsets.ISO_8859_1));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Runs curl and returns its output, failing the test (with curl's error output) if curl failed. */
    public static byte[] ok(String... args) throws IOException, InterruptedException {
        Result result = run(args);
        if (result.exitCode() != 0) {
            throw new AssertionError("curl " + String.join(" ", args) + " exited with " + result.exitCode() + ": "
                    + result.stderr());
        }
        return result.body();
    }
}
