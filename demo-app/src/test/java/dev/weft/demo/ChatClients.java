package dev.weft.demo;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Guests of the demo's chat room at {@code /ws/chat}, each a JDK {@code HttpClient} WebSocket whose received
 * lines, and the server's close frame, go to an inbox. Closing this ends the client at once: the tests assert
 * each closing handshake themselves (see {@link Guest#leave()}), and {@link HttpClient#close()} alone would
 * wait for every WebSocket still open, so a test that failed half-way would hang there and report a timeout
 * instead of its failure.
 */
final class ChatClients implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient client = HttpClient.newHttpClient();
    private final int port;

    ChatClients(int port) {
        this.port = port;
    }

    /** Opens a WebSocket to the chat. */
    Guest join() throws Exception {
        BlockingQueue<String> inbox = new LinkedBlockingQueue<>();
        WebSocket ws = client.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + port + "/ws/chat"),
                new WebSocket.Listener() {
                    private final StringBuilder text = new StringBuilder();

                    @Override
                    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                        text.append(data);
                        if (last) {
                            inbox.add(text.toString());
                            text.setLength(0);
                        }
                        webSocket.request(1);
                        return null;
                    }

                    @Override
                    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                        inbox.add(JSON.writeValueAsString(Map.of("type", "close frame", "code", statusCode)));
                        return null;
                    }
                }).get(10, TimeUnit.SECONDS);
        return new Guest(ws, inbox);
    }

    @Override
    public void close() {
        client.shutdownNow();
        client.close();
    }

    /** One client in the room. */
    record Guest(WebSocket ws, BlockingQueue<String> inbox) {

        /**
         * The next line this client received that has no {@code from} or is from one of {@code names}: the room
         * is shared by every test of the application context, and a guest of an earlier test may still be
         * leaving.
         */
        JsonNode next(String... names) throws InterruptedException {
            List<String> ours = List.of(names);
            while (true) {
                String line = inbox.poll(10, TimeUnit.SECONDS);
                assertThat(line).as("a line within 10 s").isNotNull();
                JsonNode node = JSON.readTree(line);
                JsonNode from = node.get("from");
                if (from == null || ours.contains(from.asString())) {
                    return node;
                }
            }
        }

        /** The {@code welcome} line: the name the room gave this client. */
        String welcome() throws InterruptedException {
            JsonNode welcome = next();
            assertThat(welcome.get("type").asString()).isEqualTo("welcome");
            return welcome.get("name").asString();
        }

        /**
         * Starts the closing handshake and checks that the server answers it with its own close frame
         * (RFC 6455 §5.5.1); lines still on their way are skipped.
         */
        void leave() throws Exception {
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "").get(10, TimeUnit.SECONDS);
            JsonNode close = next();
            assertThat(close.get("type").asString()).as(close.toString()).isEqualTo("close frame");
            assertThat(close.get("code").asInt()).isEqualTo(WebSocket.NORMAL_CLOSURE);
        }
    }
}
