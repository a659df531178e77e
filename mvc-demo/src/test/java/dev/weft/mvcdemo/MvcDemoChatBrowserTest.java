package dev.weft.mvcdemo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo's STOMP chat page in headless Chromium (src/test/resources/browser/chat_pages.js): two visitors, each in
 * a browser context of their own, see each other's lines, sent and received by the page's own STOMP client over a
 * WebSocket to Weft's servlet container.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MvcDemoChatBrowserTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Test
    void twoVisitorsSeeEachOthersLinesInChromium() throws Exception {
        Path script = Path.of("src/test/resources/browser/chat_pages.js").toAbsolutePath();
        ProcessBuilder builder = new ProcessBuilder(List.of("node", script.toString(), "http://127.0.0.1:" + port))
                .redirectErrorStream(true);
        builder.environment().put("NODE_PATH", MvcDemoBrowserTest.nodeModules().toString());
        Process process = builder.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        assertThat(process.exitValue()).as(output).isZero();

        JsonNode shown = JSON.readTree(output.lines().reduce((first, second) -> second).orElseThrow());
        assertThat(shown.get("annState").asString()).isEqualTo("connected");
        assertThat(texts(shown.get("benLines"))).containsExactly(
                "ben: ben is here", "ann: hello from ann", "ben: hi ann: a\\b, ünïcödé ✓");
        // ann may have been subscribed before ben's first line or not
        assertThat(texts(shown.get("annLines"))).endsWith("ann: hello from ann", "ben: hi ann: a\\b, ünïcödé ✓");
        assertThat(shown.get("textAfterSend").asString()).as("the message field is cleared after sending").isEmpty();
        assertThat(shown.get("errors")).isEmpty();
    }

    private static List<String> texts(JsonNode array) {
        return array.valueStream().map(JsonNode::asString).toList();
    }
}
