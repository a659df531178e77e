package dev.weft.spring.boot.websocket;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs {@code src/test/resources/websocket/ws_client.py}: Python {@code websockets} over HTTP/1.1, or
 * {@code h2} + {@code wsproto} over HTTP/2 (RFC 8441), both third-party WebSocket implementations. Fails when
 * python3 or a module is missing ({@code scripts/install-test-tools.sh} installs them).
 */
final class PythonWebSocketClient {

    private static Path python;
    private static Path script;

    private PythonWebSocketClient() {
    }

    /** The first python3 on {@code PATH} that can import the client's modules. */
    private static synchronized Path python() throws IOException, InterruptedException {
        if (python == null) {
            for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(java.io.File.pathSeparator)) {
                Path candidate = Path.of(dir, "python3");
                if (Files.isExecutable(candidate) && canImportModules(candidate)) {
                    python = candidate;
                    break;
                }
            }
            if (python == null) {
                fail("python3 with the websockets, h2 and wsproto modules is required "
                        + "(scripts/install-test-tools.sh installs them)");
            }
        }
        return python;
    }

    private static boolean canImportModules(Path candidate) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(candidate.toString(), "-c", "import websockets, h2, wsproto")
                .redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    private static synchronized Path script() throws IOException {
        if (script == null) {
            Path copy = Files.createTempFile("weft-ws-client", ".py");
            try (InputStream in = PythonWebSocketClient.class.getResourceAsStream("/websocket/ws_client.py")) {
                assertNotNull(in, "test resource /websocket/ws_client.py");
                Files.copy(in, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            copy.toFile().deleteOnExit();
            script = copy;
        }
        return script;
    }

    /**
     * Runs one session with {@code steps} (see the script) and returns its JSON report.
     *
     * @param http2 whether to open the session by RFC 8441 extended CONNECT
     */
    static JsonNode run(String url, boolean http2, List<String> subprotocols, String steps)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(python().toString(), script().toString(), url));
        if (http2) {
            command.add("--http2");
        }
        for (String p : subprotocols) {
            command.add("--subprotocol");
            command.add(p);
        }
        command.add(steps);
        Path err = Files.createTempFile("weft-ws-client", ".err");
        try {
            Process process = new ProcessBuilder(command).redirectError(err.toFile()).start();
            process.getOutputStream().close();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("ws_client.py timed out: " + command);
            }
            String stdout = new String(out, StandardCharsets.UTF_8).strip();
            String stderr = Files.readString(err);
            assertEquals(0, process.exitValue(), () -> "ws_client.py failed: " + stdout + "\n" + stderr);
            String last = stdout.substring(stdout.lastIndexOf('\n') + 1);
            return JsonMapper.builder().build().readTree(last);
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
