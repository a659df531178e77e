package dev.weft.micronaut;

import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.MiniJson;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs the starter's {@code websocket/ws_client.py} (a test resource of this module too, see the pom): Python
 * {@code websockets} over HTTP/1.1, {@code h2} + {@code wsproto} over HTTP/2 (RFC 8441). Fails, never skips,
 * when python3 or one of those modules is missing.
 */
final class PythonWebSocketClient {

    private PythonWebSocketClient() {
    }

    /** Runs one session of {@code steps} (see the script) and returns its JSON report. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> run(String url, boolean http2, String steps) throws IOException {
        String python = python();
        List<String> command = new ArrayList<>(List.of(python, script().toString(), url));
        if (http2) {
            command.add("--http2");
        }
        command.add(steps);
        ExternalTools.Result result = ExternalTools.run(command, Duration.ofSeconds(60));
        assertThat(result.exit()).as(result::describe).isZero();
        String out = result.stdout().strip();
        return (Map<String, Object>) MiniJson.parse(out.substring(out.lastIndexOf('\n') + 1));
    }

    private static String python() {
        ExternalTools.Result check = ExternalTools.run(List.of("python3", "-c", "import websockets, h2, wsproto"),
                Duration.ofSeconds(30));
        if (check.exit() != 0) {
            fail("python3 with the websockets, h2 and wsproto modules is required for this test ("
                    + ExternalTools.INSTALL_HINT + "): " + check.stderr().strip());
        }
        return "python3";
    }

    private static Path script() throws IOException {
        Path copy = Files.createTempFile("weft-ws-client", ".py");
        copy.toFile().deleteOnExit();
        try (InputStream in = PythonWebSocketClient.class.getResourceAsStream("/websocket/ws_client.py")) {
            assertThat(in).as("test resource /websocket/ws_client.py").isNotNull();
            Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
        }
        return copy;
    }
}
