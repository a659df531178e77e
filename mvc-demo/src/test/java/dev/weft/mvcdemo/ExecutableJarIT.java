package dev.weft.mvcdemo;

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
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code java -jar} on the packaged demo starts Spring MVC on Weft: the jar {@code mvn package} builds is an
 * executable Spring Boot jar whose templates, static files and JSON API work from inside it.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ExecutableJarIT {

    private static final Pattern STARTED = Pattern.compile("Weft started on port (\\d+)");

    @Test
    void javaDashJarServesThePagesAndTheApiOnWeft() throws Exception {
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
                Matcher started = STARTED.matcher(line);
                if (started.find()) {
                    port = Integer.parseInt(started.group(1));
                }
            }
            assertThat(port).as("port in the log:\n" + seen).isPositive();

            try (HttpClient client = HttpClient.newHttpClient()) {
                HttpResponse<String> home = get(client, port, "/");
                assertThat(home.statusCode()).isEqualTo(200);
                assertThat(home.headers().firstValue("Server")).hasValue("Weft");
                assertThat(home.body()).contains("<title>Home · Spring MVC on Weft</title>", "id=\"counter\"");

                assertThat(get(client, port, "/css/style.css").statusCode()).isEqualTo(200);
                HttpResponse<String> info = get(client, port, "/api/info");
                assertThat(info.statusCode()).isEqualTo(200);
                assertThat(info.body()).contains("\"server\":\"Weft");
            }
        } finally {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    @Test
    void theJarCarriesWeftAndNoOtherServletContainer() throws Exception {
        List<String> libraries;
        try (JarFile jar = new JarFile(System.getProperty("demo.jar"))) {
            libraries = jar.stream().map(JarEntry::getName).filter(name -> name.startsWith("BOOT-INF/lib/"))
                    .map(name -> name.substring("BOOT-INF/lib/".length())).toList();
        }

        assertThat(libraries).anyMatch(name -> name.startsWith("weft-servlet-"))
                .anyMatch(name -> name.startsWith("weft-spring-boot-starter-"))
                .noneMatch(name -> name.contains("tomcat") || name.contains("jetty") || name.contains("undertow"));
    }

    private static HttpResponse<String> get(HttpClient client, int port, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
