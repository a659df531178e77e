package dev.weft.websocket.jakarta;

import dev.weft.websocket.jakarta.JakartaEndpointClientsTest.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Close codes of the spec: 1009 for a message too big, 1001 on idle timeout, 1011 for an endpoint error; decode errors. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SessionLimitsAndErrorsTest {

    private JakartaServers servers;
    private HttpClient client;

    @BeforeEach
    void start() throws Exception {
        LimitEndpoints.EVENTS.clear();
        servers = JakartaServers.start(LimitEndpoints.Small.class, LimitEndpoints.Idle.class,
                LimitEndpoints.Points.class, LimitEndpoints.Throws.class);
        client = HttpClient.newHttpClient();
    }

    @AfterEach
    void stop() {
        servers.close();
        client.shutdownNow();
    }

    private WebSocket open(String path, Received received) throws Exception {
        return client.newWebSocketBuilder().buildAsync(servers.ws(path), received).get(20, TimeUnit.SECONDS);
    }

    @Test
    void aMessageLargerThanMaxMessageSizeClosesWith1009() throws Exception {
        Received r = new Received();
        WebSocket ws = open("/small", r);
        ws.sendText("short", true).get(20, TimeUnit.SECONDS);
        assertEquals("short", r.next());
        ws.sendText("x".repeat(100), true).get(20, TimeUnit.SECONDS);
        assertEquals("close:1009", r.next());
    }

    @Test
    void anIdleSessionIsClosedBySetMaxIdleTimeout() throws Exception {
        Received r = new Received();
        open("/idle", r);
        assertEquals("close:1001", r.next());
        assertEquals("idle-closed:1001", LimitEndpoints.EVENTS.poll(20, TimeUnit.SECONDS));
    }

    @Test
    void aDecoderFailureGoesToOnErrorAndTheSessionAndOthersGoOn() throws Exception {
        Received first = new Received();
        Received second = new Received();
        WebSocket a = open("/points", first);
        WebSocket b = open("/points", second);
        a.sendText("not a point", true).get(20, TimeUnit.SECONDS);
        assertEquals("error:DecodeException", first.next());
        a.sendText("1,2", true).get(20, TimeUnit.SECONDS);
        assertEquals("point:1,2", first.next());
        b.sendText("3, 4", true).get(20, TimeUnit.SECONDS);
        assertEquals("point:3,4", second.next());
    }

    @Test
    void anEndpointThatThrowsGetsOnErrorAndTheSessionClosesWith1011() throws Exception {
        Received r = new Received();
        WebSocket ws = open("/throws", r);
        ws.sendText("boom", true).get(20, TimeUnit.SECONDS);
        assertEquals("close:1011", r.next());
        assertEquals("error:endpoint bug: boom", LimitEndpoints.EVENTS.poll(20, TimeUnit.SECONDS));
        Received other = new Received();
        WebSocket echo = open("/echo/still-up", other);
        echo.sendText("ok", true).get(20, TimeUnit.SECONDS);
        assertEquals("still-up:ok", other.next());
    }
}
