package dev.weft.mvcdemo;

import dev.weft.httpserver.testing.ExternalTools;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs a Node script of src/test/resources/browser that drives headless Chromium, and reads what it printed. */
final class ChromiumScripts {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ChromiumScripts() {
    }

    /**
     * Runs {@code script} with {@code arguments} and returns its last output line, a JSON object; fails the test
     * if it does not finish in 60 s or exits with a failure.
     */
    static JsonNode run(String script, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("node",
                Path.of("src/test/resources/browser", script).toAbsolutePath().toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("NODE_PATH", nodeModules().toString());
        Process process = builder.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return JSON.readTree(output.lines().reduce((first, second) -> second).orElseThrow());
    }

    /** Where scripts/install-test-tools.sh installs playwright-core; Chromium must be there too. */
    private static Path nodeModules() {
        ExternalTools.require("chromium");
        return ExternalTools.requireNodeModule("playwright-core");
    }
}
