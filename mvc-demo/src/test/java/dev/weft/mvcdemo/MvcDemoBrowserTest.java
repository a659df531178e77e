package dev.weft.mvcdemo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo's pages in headless Chromium (src/test/resources/browser/mvc_demo_pages.js): the session counter, the
 * upload form, the server-sent-events page and the form login, as a user clicks through them.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MvcDemoBrowserTest {

    @LocalServerPort
    int port;

    @Test
    void aUserClicksThroughCounterUploadEventsAndLoginInChromium(@TempDir Path temp) throws Exception {
        byte[] content = new byte[200_000];
        new Random(5).nextBytes(content);
        Path file = Files.write(temp.resolve("photo.bin"), content);
        Path profile = Files.createDirectory(temp.resolve("chromium-profile"));

        JsonNode shown = ChromiumScripts.run("mvc_demo_pages.js", "http://127.0.0.1:" + port, profile.toString(),
                file.toString());

        assertThat(shown.get("serverInfo").asString()).startsWith("Weft");
        assertThat(shown.get("counterAtFirst").asString()).isEqualTo("0");
        assertThat(shown.get("counterAfterTwo").asString()).isEqualTo("2");

        assertThat(shown.get("upload").get("name").asString()).isEqualTo("photo.bin");
        assertThat(shown.get("upload").get("size").asString()).isEqualTo("200000");
        assertThat(shown.get("upload").get("sha256").asString())
                .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content)));

        assertThat(shown.get("eventsState").asString()).isEqualTo("open");
        assertThat(shown.get("events").get(0).asString()).startsWith("tick 1 at ");
        assertThat(shown.get("events").get(1).asString()).startsWith("tick 2 at ");

        assertThat(URI.create(shown.get("loginUrl").asString()).getPath()).isEqualTo("/login");
        // Spring Security marks the saved request it sends the user back to with "?continue".
        assertThat(URI.create(shown.get("accountUrl").asString()).getPath()).isEqualTo("/account");
        assertThat(shown.get("user").asString()).isEqualTo("demo");
        assertThat(shown.get("sessionBeforeLogin")).as("a session before login").isNotNull();
        assertThat(shown.get("sessionAfterLogin").asString()).as("a new session id after login")
                .isNotEqualTo(shown.get("sessionBeforeLogin").asString());
        assertThat(shown.get("afterLogout").asString()).endsWith("/login?logout");
        assertThat(shown.get("errors")).isEmpty();
    }
}
