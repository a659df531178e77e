package dev.weft.micronaut;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs {@code curl -s} with the given arguments; what it printed (stdout and stderr) and its exit code. */
record Curl(int exitCode, String output) {

    static Curl run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("curl", "-s", "--max-time", "30"));
        command.addAll(List.of(args));
        Process curl = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!curl.waitFor(40, TimeUnit.SECONDS)) {
            curl.destroyForcibly();
            throw new IOException("curl did not finish: " + command);
        }
        return new Curl(curl.exitValue(), out);
    }
}
