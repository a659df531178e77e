package dev.weft.httpserver.testing;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Third-party programs the tests talk to (h2spec, curl, nghttp, h2load, python3 with its modules): where to find
 * them, what to do when one is missing, and how to run one with a time limit.
 *
 * <p>A program is looked for in {@code $WEFT_TOOLS_BIN} (default {@code ~/.cache/weft-tools/bin}, where
 * {@code scripts/install-test-tools.sh} builds h2spec and {@code ./run-tests} points the variable), then on
 * {@code PATH}, then in {@code ~/go/bin}. A missing one fails the test when the environment variable {@code CI}
 * or {@code WEFT_TOOLS_BIN} is set (CI, and {@code ./run-tests}, which has just installed everything, so a
 * missing tool is a broken install, not a choice); anywhere else the test is skipped with an assumption that
 * says how to install it.
 */
public final class ExternalTools {

    /** The environment variable naming the folder of tools built for the tests. */
    public static final String TOOLS_BIN_ENV = "WEFT_TOOLS_BIN";

    /** What to run to get every tool. */
    public static final String INSTALL_HINT = "scripts/install-test-tools.sh installs it (./run-tests runs that first)";

    private ExternalTools() {
    }

    /** The folders searched, in order. */
    public static List<Path> searchPath() {
        List<Path> dirs = new ArrayList<>();
        String home = System.getProperty("user.home");
        String tools = System.getenv(TOOLS_BIN_ENV);
        if (tools != null && !tools.isBlank()) {
            dirs.add(Path.of(tools));
        } else if (home != null) {
            dirs.add(Path.of(home, ".cache", "weft-tools", "bin"));
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String p : path.split(File.pathSeparator)) {
                if (!p.isEmpty()) {
                    dirs.add(Path.of(p));
                }
            }
        }
        if (home != null) {
            dirs.add(Path.of(home, "go", "bin"));
        }
        return dirs;
    }

    /** The executable {@code name} in the first folder of {@link #searchPath()} that has one. */
    public static Optional<Path> find(String name) {
        for (Path dir : searchPath()) {
            Path p = dir.resolve(name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The executable {@code name}; if there is none, fails or skips the calling test (see the class comment). */
    public static Path require(String name) {
        Optional<Path> p = find(name);
        if (p.isEmpty()) {
            missing(name + " not found in " + searchPath());
        }
        return p.orElseThrow();
    }

    /** Requires python3 and that {@code import module} works in it; fails or skips like {@link #require}. */
    public static Path requirePythonModule(String module) {
        Path python = require("python3");
        Result r = run(List.of(python.toString(), "-c", "import " + module), Duration.ofSeconds(30));
        if (r.exit() != 0) {
            missing("python3 (" + python + ") cannot import " + module + ": " + r.stderr().strip());
        }
        return python;
    }

    /**
     * The {@code node_modules} folder that install-test-tools.sh fills ({@code $WEFT_TOOLS_BIN/../node/node_modules}),
     * for {@code NODE_PATH}; fails or skips like {@link #require} unless the Node package {@code module} is in it.
     */
    public static Path requireNodeModule(String module) {
        String bin = System.getenv(TOOLS_BIN_ENV);
        Path base = bin == null || bin.isBlank()
                ? Path.of(System.getProperty("user.home"), ".cache", "weft-tools", "bin") : Path.of(bin);
        Path modules = base.resolveSibling("node").resolve("node_modules");
        if (!Files.isDirectory(modules.resolve(module))) {
            missing("Node package " + module + " not found in " + modules);
        }
        return modules;
    }

    /** Whether a missing tool fails the test rather than skipping it. */
    public static boolean toolsRequired() {
        return isSet("CI") || isSet(TOOLS_BIN_ENV);
    }

    private static boolean isSet(String env) {
        String v = System.getenv(env);
        return v != null && !v.isBlank();
    }

    private static void missing(String what) {
        String message = what + "; " + INSTALL_HINT;
        if (toolsRequired()) {
            Assertions.fail(message + " (a missing tool fails the test when CI or " + TOOLS_BIN_ENV + " is set)");
        }
        Assumptions.abort(message);
    }

    /** What a finished program did. */
    public record Result(List<String> command, int exit, String stdout, String stderr, Duration took) {
        /** The command, exit code and both outputs (each cut to its last 8,000 characters), for messages. */
        public String describe() {
            return String.join(" ", command) + "\nexit " + exit + " after " + took.toMillis() + " ms\n--- stdout\n"
                    + tail(stdout) + "\n--- stderr\n" + tail(stderr);
        }

        private static String tail(String s) {
            return s.length() <= 8000 ? s : "..." + s.substring(s.length() - 8000);
        }
    }

    /** Runs a command with no input and a time limit (fails the test when it is exceeded). */
    public static Result run(List<String> command, Duration timeout) {
        return start(command, null).await(timeout);
    }

    /** Starts a command whose standard input is {@code stdin} ({@code null}: none). */
    public static Running start(List<String> command, Path stdin) {
        try {
            Path out = Files.createTempFile("weft-tool", ".out");
            Path err = Files.createTempFile("weft-tool", ".err");
            ProcessBuilder pb = new ProcessBuilder(command)
                    .redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(stdin == null ? ProcessBuilder.Redirect.from(new File("/dev/null"))
                            : ProcessBuilder.Redirect.from(stdin.toFile()));
            long started = System.nanoTime();
            return new Running(List.copyOf(command), pb.start(), out, err, started);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    /**
     * A started program; its output goes to files, so neither pipe can fill up and block it.
     */
    public static final class Running {
        private final List<String> command;
        private final Process process;
        private final Path out;
        private final Path err;
        private final long started;

        private Running(List<String> command, Process process, Path out, Path err, long started) {
            this.command = command;
            this.process = process;
            this.out = out;
            this.err = err;
            this.started = started;
        }

        /** Waits for the end; past {@code timeout} the program is killed and the test fails with its output. */
        public Result await(Duration timeout) {
            try {
                boolean done = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                if (!done) {
                    process.destroyForcibly();
                    process.waitFor(5, TimeUnit.SECONDS);
                    Result partial = collect(-1, took);
                    Assertions.fail("did not finish within " + timeout.toSeconds() + " s: " + partial.describe());
                }
                return collect(process.exitValue(), took);
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for " + command, e);
            }
        }

        /** Kills the program if it still runs. */
        public void kill() {
            process.destroyForcibly();
        }

        private Result collect(int exit, Duration took) {
            try {
                // decoded leniently: a malformed byte becomes U+FFFD instead of an exception
                Result r = new Result(command, exit, new String(Files.readAllBytes(out), StandardCharsets.UTF_8),
                        new String(Files.readAllBytes(err), StandardCharsets.UTF_8), took);
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
                return r;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
