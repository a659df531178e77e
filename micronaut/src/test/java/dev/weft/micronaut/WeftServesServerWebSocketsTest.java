package dev.weft.micronaut;

import dev.weft.micronaut.app.WebSocketCloses;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @ServerWebSocket} beans ({@code EchoSocket}, {@code BinarySocket}) over real sockets, with the JDK's
 * WebSocket client and Python {@code websockets}.
 */
@MicronautTest
class WeftServesServerWebSocketsTest {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @Inject
    EmbeddedServer server;

    @Inject
    WebSocketCloses closes;

    @AfterAll
    static void closeClient() {
        CLIENT.close();
    }

    private URI ws(String path) {
        return URI.create("ws://localhost:" + server.getPort() + path);
    }

    @Test
    void onOpenAndOnMessageReceiveThePathVariableAndTheTextIsEchoed() throws Exception {
        JdkWebSocketClient client = new JdkWebSocketClient(CLIENT, ws("/echo/lobby"));
        assertThat(client.next()).isEqualTo("joined lobby");
        client.socket.sendText("hello", true).join();
        assertThat(client.next()).isEqualTo("lobby:hello");
        client.socket.sendClose(1000, "").join();
        assertThat(client.awaitClose().code()).isEqualTo(1000);
    }

    @Test
    void binaryMessagesReachAByteArrayParameterAndAreAnsweredInBinary() throws Exception {
        JdkWebSocketClient client = new JdkWebSocketClient(CLIENT, ws("/binary"));
        client.socket.sendBinary(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}), true).join();
        assertThat((byte[]) client.next()).containsExactly(4, 3, 2, 1);
        client.socket.sendClose(1000, "").join();
        client.awaitClose();
    }

    @Test
    void broadcastReachesEveryOpenSessionTheFilterAccepts() throws Exception {
        JdkWebSocketClient first = new JdkWebSocketClient(CLIENT, ws("/echo/news"));
        JdkWebSocketClient second = new JdkWebSocketClient(CLIENT, ws("/echo/news"));
        JdkWebSocketClient elsewhere = new JdkWebSocketClient(CLIENT, ws("/echo/other"));
        assertThat(first.next()).isEqualTo("joined news");
        assertThat(second.next()).isEqualTo("joined news");
        assertThat(elsewhere.next()).isEqualTo("joined other");

        first.socket.sendText("broadcast:rain", true).join();
        assertThat(first.next()).isEqualTo("news hears rain");
        assertThat(second.next()).isEqualTo("news hears rain");
        // the other room's session gets only its own echo, not the broadcast
        elsewhere.socket.sendText("ping", true).join();
        assertThat(elsewhere.next()).isEqualTo("other:ping");
        for (JdkWebSocketClient c : List.of(first, second, elsewhere)) {
            c.socket.sendClose(1000, "").join();
            c.awaitClose();
        }
    }

    @Test
    void sessionCloseSendsItsCodeAndReasonToTheClient() throws Exception {
        JdkWebSocketClient client = new JdkWebSocketClient(CLIENT, ws("/echo/closing"));
        assertThat(client.next()).isEqualTo("joined closing");
        client.socket.sendText("close:4001", true).join();
        assertThat(client.awaitClose()).isEqualTo(new JdkWebSocketClient.Close(4001, "bye"));
        WebSocketCloses.Closed closed = closes.next("closing");
        assertThat(closed).isNotNull();
        assertThat(closed.reason().getCode()).isEqualTo(4001);
    }

    @Test
    void clientCloseReachesOnCloseWithItsCodeAndReason() throws Exception {
        JdkWebSocketClient client = new JdkWebSocketClient(CLIENT, ws("/echo/leaving"));
        assertThat(client.next()).isEqualTo("joined leaving");
        client.socket.sendClose(4000, "done").join();
        assertThat(client.awaitClose().code()).isEqualTo(4000);
        WebSocketCloses.Closed closed = closes.next("leaving");
        assertThat(closed).isNotNull();
        assertThat(closed.reason().getCode()).isEqualTo(4000);
        assertThat(closed.reason().getReason()).isEqualTo("done");
    }

    @Test
    void aMessageOverMaxPayloadLengthClosesTheSessionWith1009() throws Exception {
        JdkWebSocketClient client = new JdkWebSocketClient(CLIENT, ws("/echo/big"));
        assertThat(client.next()).isEqualTo("joined big");
        client.socket.sendText("x".repeat(4097), true).join();
        assertThat(client.awaitClose().code()).isEqualTo(1009);
        assertThat(closes.next("big").reason().getCode()).isEqualTo(1009);
    }

    @Test
    void pythonWebsocketsEchoesAndSeesTheServerCloseCode() throws Exception {
        Map<String, Object> report = PythonWebSocketClient.run(ws("/echo/py") .toString(), false,
                "[{\"receive\": 1}, {\"text\": \"hi\"}, {\"receive\": 1}, {\"text\": \"close:4002\"},"
                        + " {\"await_close\": true}]");
        assertThat(report.get("received")).isEqualTo(List.of("joined py", "py:hi"));
        assertThat(((Number) report.get("close_code")).intValue()).isEqualTo(4002);
        assertThat(report.get("close_reason")).isEqualTo("bye");
    }

    @Test
    void pythonWebsocketsClientCloseReachesOnClose() throws Exception {
        Map<String, Object> report = PythonWebSocketClient.run(ws("/echo/pyclose").toString(), false,
                "[{\"receive\": 1}, {\"close\": [4003, \"later\"]}]");
        assertThat(report.get("received")).isEqualTo(List.of("joined pyclose"));
        WebSocketCloses.Closed closed = closes.next("pyclose");
        assertThat(closed).isNotNull();
        assertThat(closed.reason().getCode()).isEqualTo(4003);
        assertThat(closed.reason().getReason()).isEqualTo("later");
    }

    @Test
    void pythonWebsocketsOversizedBinaryMessageIsClosedWith1009() throws Exception {
        Map<String, Object> report = PythonWebSocketClient.run(ws("/echo/pybig").toString(), false,
                "[{\"receive\": 1}, {\"binary\": 5000}, {\"await_close\": true}]");
        assertThat(((Number) report.get("close_code")).intValue()).isEqualTo(1009);
    }
}
