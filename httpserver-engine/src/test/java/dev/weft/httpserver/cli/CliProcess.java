package dev.weft.httpserver.cli;

import dev.weft.httpserver.testing.Await;
import org.junit.jupiter.api.Assertions;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command-line server as a real process, started as a module ({@code java -p <classes> -m
 * dev.weft.httpserver/dev.weft.httpserver.cli.Main}) with the running JDK; its output lines are collected as they
 * come. Closing it kills the process.
 */
final class CliProcess implements AutoCloseable {

    private static final Pattern BANNER = Pattern.compile("Serving .* at (https?)://127\\.0\\.0\\.1:(\\d+)/ over .*");

    private final Process process;
    private final List<String> out = new CopyOnWriteArrayList<>();
    private final List<String> err = new CopyOnWriteArrayList<>();
    private final Thread outPump;
    private final Thread errPump;

    private CliProcess(List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(command());
        cmd.addAll(args);
        process = new ProcessBuilder(cmd).start();
        outPump = pump(process.getInputStream(), out);
        errPump = pump(process.getErrorStream(), err);
    }

    /** The java command running {@link Main} from the module path. */
    static List<String> command() {
        try {
            Path classes = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            return List.of(java, "-XX:TieredStopAtLevel=1", "-p", classes.toString(), "-m",
                    "dev.weft.httpserver/dev.weft.httpserver.cli.Main");
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static CliProcess start(String... args) throws IOException {
        return new CliProcess(List.of(args));
    }

    private static Thread pump(InputStream stream, List<String> lines) {
        BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
        return Thread.ofVirtual().start(() -> {
            try (reader) {
                for (String line; (line = reader.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
    }

    /** Waits for the banner; returns the URL it names, e.g. {@code http://127.0.0.1:41234/}. */
    String awaitUrl() {
        List<String> lines = Await.value("the banner", () -> {
            if (!process.isAlive() && !outPump.isAlive() && out.stream().noneMatch(l -> BANNER.matcher(l).matches())) {
                Assertions.fail("server exited " + process.exitValue() + ": " + out + " " + err);
            }
            return List.copyOf(out);
        }, seen -> seen.stream().anyMatch(l -> BANNER.matcher(l).matches()));
        Matcher m = lines.stream().map(BANNER::matcher).filter(Matcher::matches).findFirst().orElseThrow();
        return m.group(1) + "://127.0.0.1:" + m.group(2) + "/";
    }

    /** Waits until an output line contains {@code text}; returns it. */
    String awaitLine(String text) {
        return Await.value("a line containing " + text, () -> List.copyOf(out),
                        seen -> seen.stream().anyMatch(l -> l.contains(text)))
                .stream().filter(l -> l.contains(text)).findFirst().orElseThrow();
    }

    /** Waits for the process to end on its own and for the last of its output; returns the exit status. */
    int awaitExit() throws InterruptedException {
        Assertions.assertTrue(process.waitFor(30, TimeUnit.SECONDS), "did not exit: " + out + " " + err);
        joinPumps();
        return process.exitValue();
    }

    /**
     * Stops the process as an interrupt would ({@code SIGTERM}: the server's shutdown hook runs) and waits for
     * it to end and for the last of its output, so that {@link #out()} is then everything it ever printed.
     */
    void stop() throws InterruptedException {
        process.destroy();
        Assertions.assertTrue(process.waitFor(30, TimeUnit.SECONDS), "did not stop: " + out + " " + err);
        joinPumps();
    }

    /** The pumps end at the end of the process's output: every line is in {@link #out()} and {@link #err()}. */
    private void joinPumps() throws InterruptedException {
        Assertions.assertTrue(outPump.join(Duration.ofSeconds(10)), "standard output still open");
        Assertions.assertTrue(errPump.join(Duration.ofSeconds(10)), "standard error still open");
    }

    List<String> out() {
        return out;
    }

    List<String> err() {
        return err;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
