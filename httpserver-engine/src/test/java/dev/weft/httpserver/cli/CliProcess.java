package dev.weft.httpserver.cli;

import org.junit.jupiter.api.Assertions;

import java.io.BufferedReader;
import java.io.IOException;
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

    private CliProcess(List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(command());
        cmd.addAll(args);
        process = new ProcessBuilder(cmd).start();
        pump(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)), out);
        pump(new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)), err);
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

    private static void pump(BufferedReader reader, List<String> lines) {
        Thread.ofVirtual().start(() -> {
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
    String awaitUrl() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            for (String line : out) {
                Matcher m = BANNER.matcher(line);
                if (m.matches()) {
                    return m.group(1) + "://127.0.0.1:" + m.group(2) + "/";
                }
            }
            if (!process.isAlive() && out.stream().noneMatch(l -> BANNER.matcher(l).matches())) {
                Assertions.fail("server exited " + process.exitValue() + ": " + out + " " + err);
            }
            Thread.sleep(50);
        }
        return Assertions.fail("no banner within 30 s: " + out + " " + err);
    }

    /** Waits until an output line contains {@code text}; returns it. */
    String awaitLine(String text) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            for (String line : out) {
                if (line.contains(text)) {
                    return line;
                }
            }
            Thread.sleep(20);
        }
        return Assertions.fail("no line containing " + text + " in " + out);
    }

    /** Waits for the process to end on its own; returns the exit status. */
    int awaitExit() throws InterruptedException {
        Assertions.assertTrue(process.waitFor(30, TimeUnit.SECONDS), "did not exit: " + out + " " + err);
        Thread.sleep(100); // let the pumps take the last lines
        return process.exitValue();
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
