package dev.weft.websocket.jakarta;

import dev.weft.httpserver.testing.Await;
import dev.weft.websocket.jakarta.JakartaEndpointClientsTest.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** getOpenSessions, the async remote with an encoder, a primitive message parameter and getSendWriter. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SessionApiTest {

    private JakartaServers servers;
    private HttpClient client;

    @BeforeEach
    void start() throws Exception {
        servers = JakartaServers.start(SessionApiEndpoints.Broadcast.class, SessionApiEndpoints.Streamed.class);
        client = HttpClient.newHttpClient();
    }

    @AfterEach
    void stop() {
        servers.close();
        client.shutdownNow();
    }

    private WebSocket open(String path, Received r) throws Exception {
        return client.newWebSocketBuilder().buildAsync(servers.ws(path), r).get(20, TimeUnit.SECONDS);
    }

    @Test
    void aMessageIsBroadcastEncodedToEveryOpenSessionOfTheEndpoint() throws Exception {
        Received first = new Received();
        Received second = new Received();
        WebSocket a = open("/broadcast", first);
        open("/broadcast", second);
        open("/echo/elsewhere", new Received());
        Await.until("three sessions", () -> servers.server.stats().webSocket().sessionsActive() == 3);
        a.sendText("hello", true).get(20, TimeUnit.SECONDS);
        assertEquals("HELLO!", first.next());
        assertEquals("HELLO!", second.next());
    }

    @Test
    void aWriterSendsALongMessageInPartsThatArriveAsOne() throws Exception {
        Received r = new Received();
        WebSocket ws = open("/writer", r);
        ws.sendText("20000", true).get(20, TimeUnit.SECONDS);
        String text = r.next();
        assertEquals(20000, text.length());
        assertEquals("abc", text.substring(0, 3));
    }
}
