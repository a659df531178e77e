package dev.weft.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.httpserver.testing.Await;
import dev.weft.micronaut.app.SocketLog;
import dev.weft.micronaut.reference.WebSocketScenarios;
import dev.weft.micronaut.reference.WebSocketScenarios.Observed;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.websocket.event.WebSocketMessageProcessedEvent;
import io.micronaut.websocket.event.WebSocketSessionClosedEvent;
import io.micronaut.websocket.event.WebSocketSessionOpenEvent;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.util.List;
import java.util.Map;

/**
 * The WebSocket lifecycle events micronaut-websocket 4.10 defines, {@link WebSocketSessionOpenEvent},
 * {@link WebSocketMessageProcessedEvent} and {@link WebSocketSessionClosedEvent}, reach an application's event
 * listener ({@link SocketLog}) on Weft as on Micronaut's Netty server: open once the session's {@code @OnOpen} has
 * run, processed for each message {@code @OnMessage} handled (with the message, and not for one it failed on),
 * closed once the session has ended. Compared with what Netty published in the same {@link WebSocketScenarios}.
 */
@MicronautTest
class WeftPublishesWebSocketLifecycleEventsTest {

    private static Map<String, Observed> netty;
    private static HttpClient client;

    @Inject
    EmbeddedServer server;

    @Inject
    SocketLog log;

    @BeforeAll
    static void loadNettysSessions() throws Exception {
        netty = WebSocketScenarios.load(WebSocketScenarios.RECORDING);
        client = HttpClient.newHttpClient();
    }

    @AfterAll
    static void closeClient() {
        client.close();
    }

    @Test
    void openProcessedAndClosedArePublishedInOrderAsOnNetty() throws Exception {
        Observed weft = WebSocketScenarios.play(server.getURI(), log,
                WebSocketScenarios.ALL.get("messageThenClientClose"));
        assertThat(weft.events()).isEqualTo(netty.get("messageThenClientClose").events())
                .containsExactly("open /failing/handled after @OnOpen", "processed hello", "closed");
    }

    @Test
    void aMessageOnMessageFailedOnIsNotPublishedAsProcessed() throws Exception {
        Observed weft = WebSocketScenarios.play(server.getURI(), log,
                WebSocketScenarios.ALL.get("throwingOnMessageWithOnError"));
        assertThat(weft.events()).isEqualTo(netty.get("throwingOnMessageWithOnError").events())
                .containsExactly("open /failing/handled after @OnOpen", "closed");
    }

    @Test
    void aSessionClosedByTheServerIsPublishedAsClosed() throws Exception {
        Observed weft = WebSocketScenarios.play(server.getURI(), log,
                WebSocketScenarios.ALL.get("throwingOnMessageWithoutOnError"));
        assertThat(weft.closedBy()).isEqualTo("server 1011");
        assertThat(weft.events()).isEqualTo(netty.get("throwingOnMessageWithoutOnError").events())
                .containsExactly("open /failing/unhandled after @OnOpen", "closed");
    }

    /** The JDK's WebSocket client on the echo socket: every message it sends is published as processed. */
    @Test
    void eachMessageOfARealClientIsPublishedAsProcessed() throws Exception {
        URI uri = URI.create("ws://localhost:" + server.getPort() + "/echo/events");
        JdkWebSocketClient jdk = new JdkWebSocketClient(client, uri);
        assertThat(jdk.next()).isEqualTo("joined events");
        jdk.socket.sendText("one", true).join();
        assertThat(jdk.next()).isEqualTo("events:one");
        jdk.socket.sendText("two", true).join();
        assertThat(jdk.next()).isEqualTo("events:two");
        jdk.socket.sendClose(1000, "").join();
        jdk.awaitClose();

        String id = Await.value("the session on /echo/events", () -> log.sessionsOn("/echo/events"),
                ids -> ids.size() == 1).get(0);
        assertThat(log.awaitEnd(id, false)).as("the closed event").isTrue();
        assertThat(log.events(id)).isEqualTo(List.of("open /echo/events", "processed one", "processed two",
                "closed"));
    }
}
