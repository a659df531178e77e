package dev.weft.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code java -jar} on the packaged demo starts it on Weft: the jar {@code mvn package} builds is an
 * executable Spring Boot jar.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ExecutableJarIT {

    private static final Pattern STARTED = Pattern.compile("Weft started on port (\\d+)");

    @Test
    void javaDashJarStartsTheDemoOnWeft() throws Exception {
        Path jar = Path.of(System.getProperty("demo.jar"));
        assertThat(jar).isRegularFile();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(List.of(java.toString(), "-jar", jar.toString(), "--server.port=0"))
                .redirectErrorStream(true)
                .start();
        try (BufferedReader log = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            int port = -1;
            StringBuilder seen = new StringBuilder();
            for (String line; port < 0 && (line = log.readLine()) != null; ) {
                seen.append(line).append('\n');
                Matcher m = STARTED.matcher(line);
                if (m.find()) {
                    port = Integer.parseInt(m.group(1));
                }
            }
            assertThat(port).as("port in the log:\n" + seen).isPositive();

            try (HttpClient client = HttpClient.newHttpClient()) {
                HttpResponse<String> page = client.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).build(),
                        HttpResponse.BodyHandlers.ofString());

                assertThat(page.statusCode()).isEqualTo(200);
                assertThat(page.headers().firstValue("Server")).hasValue("Weft");
                assertThat(page.body()).contains("<html");
            }
        } finally {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
