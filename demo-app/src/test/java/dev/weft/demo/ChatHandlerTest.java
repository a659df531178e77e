package dev.weft.demo;

import dev.weft.httpserver.testing.ExternalTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The demo's chat room at {@code /ws/chat} and its page, over real WebSockets to the Weft server. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ChatHandlerTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    private int port;

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    @Test
    void chatPageIsLinkedFromTheMainPageAndServed() throws Exception {
        assertThat(get("/").body()).contains("href=\"chat.html\"");
        HttpResponse<String> page = get("/chat.html");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<script src=\"chat.js\"></script>");
        assertThat(get("/chat.js").body()).contains("ws/chat");
    }

    @Test
    void chatBroadcastsBetweenTwoWebSocketClientsAndNamesTheProtocol() throws Exception {
        try (ChatClients clients = new ChatClients(port)) {
            ChatClients.Guest alice = clients.join();
            JsonNode welcomeA = alice.next();
            assertThat(welcomeA.get("type").asString()).isEqualTo("welcome");
            assertThat(welcomeA.get("protocol").asString()).isEqualTo("HTTP/1.1");
            String aliceName = welcomeA.get("name").asString();
            ChatClients.Guest bob = clients.join();
            String bobName = bob.welcome();
            JsonNode joined = alice.next(aliceName, bobName);
            assertThat(joined.get("type").asString()).isEqualTo("joined");
            assertThat(joined.get("from").asString()).isEqualTo(bobName);

            // Bob is in the room from before his welcome was sent: he gets what Alice says next.
            alice.ws().sendText("  hello bob  ", true).get(10, TimeUnit.SECONDS);

            for (ChatClients.Guest guest : List.of(alice, bob)) {
                JsonNode message = guest.next(aliceName, bobName);
                assertThat(message.get("type").asString()).isEqualTo("message");
                assertThat(message.get("from").asString()).isEqualTo(aliceName);
                assertThat(message.get("text").asString()).isEqualTo("hello bob");
            }
            bob.leave();
            JsonNode left = alice.next(aliceName, bobName);
            assertThat(left.get("type").asString()).isEqualTo("left");
            assertThat(left.get("from").asString()).isEqualTo(bobName);
            alice.leave();
        }
    }

    @Test
    void linesOfClientsTalkingAtOnceAllReachEveryClientInOneOrder() throws Exception {
        int each = 50; // with the joined line, fewer than ChatHandler.BACKLOG: nobody can miss a line
        try (ChatClients clients = new ChatClients(port)) {
            ChatClients.Guest alice = clients.join();
            String aliceName = alice.welcome();
            ChatClients.Guest bob = clients.join();
            String bobName = bob.welcome();
            assertThat(alice.next(aliceName, bobName).get("type").asString()).isEqualTo("joined");

            // Both send at once; the server reads each session on its own thread and broadcasts from both.
            CompletableFuture.allOf(talk(alice.ws(), "a", each), talk(bob.ws(), "b", each)).get(20, TimeUnit.SECONDS);

            List<String> heardByAlice = messages(alice, 2 * each, aliceName, bobName);
            List<String> heardByBob = messages(bob, 2 * each, aliceName, bobName);
            assertThat(heardByBob).isEqualTo(heardByAlice);
            assertThat(heardByAlice.stream().filter(line -> line.startsWith(aliceName + ":")).toList())
                    .isEqualTo(numbered(aliceName + ":a", each));
            assertThat(heardByAlice.stream().filter(line -> line.startsWith(bobName + ":")).toList())
                    .isEqualTo(numbered(bobName + ":b", each));
            bob.leave();
            alice.leave();
        }
    }

    /** Sends {@code prefix0} .. {@code prefix(n-1)}, each once the previous one is written. */
    private static CompletableFuture<WebSocket> talk(WebSocket ws, String prefix, int n) {
        CompletableFuture<WebSocket> sent = CompletableFuture.completedFuture(ws);
        for (int i = 0; i < n; i++) {
            String text = prefix + i;
            sent = sent.thenCompose(w -> w.sendText(text, true));
        }
        return sent;
    }

    /** The next {@code n} lines of {@code guest}, each a {@code message}, as {@code from:text}. */
    private static List<String> messages(ChatClients.Guest guest, int n, String... names) throws Exception {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            JsonNode message;
            try {
                message = guest.next(names);
            } catch (AssertionError e) {
                throw new AssertionError(lines.size() + " of " + n + " messages arrived: " + lines, e);
            }
            assertThat(message.get("type").asString()).as(message.toString()).isEqualTo("message");
            lines.add(message.get("from").asString() + ":" + message.get("text").asString());
        }
        return lines;
    }

    private static List<String> numbered(String prefix, int n) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            lines.add(prefix + i);
        }
        return lines;
    }

    @Test
    void chatPageWorksInHeadlessChromium() throws Exception {
        Path script = Path.of("src/test/resources/browser/chat_two_pages.js").toAbsolutePath();
        Path userData = Files.createTempDirectory("weft-demo-chromium");
        List<String> command = List.of("node", script.toString(), "http://127.0.0.1:" + port + "/chat.html",
                userData.toString());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("NODE_PATH", nodeModules().toString());
        Process process = builder.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(25, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        assertThat(process.exitValue()).as(output).isZero();

        JsonNode result = JSON.readTree(output.lines().reduce((first, second) -> second).orElseThrow());
        String line = result.get("line").asString();
        for (String who : List.of("alice", "bob")) {
            assertThat(result.get(who).get("log").asString()).as(who).contains(line);
            assertThat(result.get(who).get("protocol").asString()).as(who).isEqualTo("HTTP/1.1");
        }
        assertThat(result.get("alice").get("name").asString()).isNotEqualTo(result.get("bob").get("name").asString());
        assertThat(result.get("errors")).isEmpty();
    }

    /** Where scripts/install-test-tools.sh installs playwright-core; Chromium must be there too. */
    private static Path nodeModules() {
        ExternalTools.require("chromium");
        return ExternalTools.requireNodeModule("playwright-core");
    }
}
