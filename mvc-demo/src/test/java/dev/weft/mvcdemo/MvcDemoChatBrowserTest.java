package dev.weft.mvcdemo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo's STOMP chat page in headless Chromium (src/test/resources/browser/chat_pages.js): two visitors, each in
 * a browser context of their own, see each other's lines, sent and received by the page's own STOMP client over a
 * WebSocket to Weft's servlet container.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MvcDemoChatBrowserTest {

    @LocalServerPort
    int port;

    @Test
    void twoVisitorsSeeEachOthersLinesInChromium() throws Exception {
        JsonNode shown = ChromiumScripts.run("chat_pages.js", "http://127.0.0.1:" + port);

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
