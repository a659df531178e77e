package dev.weft.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.micronaut.app.SocketLog;
import dev.weft.micronaut.reference.WebSocketScenarios;
import dev.weft.micronaut.reference.WebSocketScenarios.Observed;
import dev.weft.micronaut.server.WeftEmbeddedServer;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;

/**
 * What a {@code @ServerWebSocket} session does on Weft when its {@code @OnMessage} fails, or its client breaks
 * RFC 6455, compared with what Micronaut's Netty server did in the same {@link WebSocketScenarios} (recorded by
 * {@code NettyWebSocketReferenceRecording}): the messages the client received, who closed the session with which
 * code, the calls of {@code @OnOpen}/{@code @OnMessage}/{@code @OnError}/{@code @OnClose} and the events
 * published. The client is {@code RawWebSocket}, a plain socket, so that it can send what a conforming client
 * cannot.
 */
@MicronautTest
class WeftHandlesWebSocketFailuresAsNettyDoesTest {

    private static Map<String, Observed> netty;

    @Inject
    EmbeddedServer server;

    @Inject
    SocketLog log;

    @BeforeAll
    static void loadNettysSessions() throws Exception {
        netty = WebSocketScenarios.load(WebSocketScenarios.RECORDING);
    }

    /**
     * An {@code @OnError} method that returns normally handles the failure: the session stays open (the client's
     * ping is answered and it closes the session itself), as on Netty.
     */
    @Test
    void anExceptionThrownByOnMessageReachesOnErrorAndTheSessionStaysOpen() throws Exception {
        Observed weft = assertSameAsNetty("throwingOnMessageWithOnError");
        assertThat(weft.calls()).containsExactly("onOpen", "onMessage throw",
                "onError IllegalStateException: thrown by @OnMessage", "onClose 1000");
        assertThat(weft.closedBy()).isEqualTo("client 1000");
    }

    @Test
    void aPublisherReturnedByOnMessageThatFailsReachesOnError() throws Exception {
        Observed weft = assertSameAsNetty("failingPublisherWithOnError");
        assertThat(weft.calls()).contains("onError IllegalStateException: failed by the publisher @OnMessage returned");
    }

    /** Without {@code @OnError} the server closes the session with 1011 (Internal Error), as Netty does. */
    @Test
    void withoutOnErrorAnExceptionThrownByOnMessageClosesTheSessionWith1011() throws Exception {
        Observed weft = assertSameAsNetty("throwingOnMessageWithoutOnError");
        assertThat(weft.closedBy()).isEqualTo("server 1011");
        assertThat(weft.calls()).containsExactly("onOpen", "onMessage throw", "onClose 1011");
    }

    /**
     * RFC 6455 §5.1: a server must close the connection on a frame that is not masked; both servers send 1002.
     * A documented difference (docs/micronaut.md): Netty's runtime also calls {@code @OnError} with Netty's
     * {@code CorruptedWebSocketFrameException} and {@code @OnClose} with 1006; Weft calls {@code @OnClose} with
     * the 1002 it sent, and no {@code @OnError}.
     */
    @Test
    void anUnmaskedFrameEndsTheSessionWith1002() throws Exception {
        Observed weft = play("unmaskedFrame");
        Observed expected = netty.get("unmaskedFrame");
        assertThat(expected.closedBy()).isEqualTo("server 1002");
        assertThat(weft.closedBy()).isEqualTo(expected.closedBy());
        assertThat(weft.received()).isEqualTo(expected.received()).isEmpty();
        assertThat(weft.events()).isEqualTo(expected.events());
        assertThat(expected.calls()).containsExactly("onOpen", "onError CorruptedWebSocketFrameException: "
                + "received a frame that is not masked as expected", "onClose 1006");
        assertThat(weft.calls()).containsExactly("onOpen", "onClose 1002");
    }

    /**
     * RFC 6455 §8.1: text that is not UTF-8 fails the connection with 1007, which Weft does. A documented
     * difference (docs/micronaut.md): Micronaut's Netty runtime does not check text frames, and hands
     * {@code @OnMessage} the text with U+FFFD in place of the broken bytes.
     */
    @Test
    void textThatIsNotUtf8EndsTheSessionWith1007() throws Exception {
        Observed weft = play("invalidUtf8Text");
        Observed expected = netty.get("invalidUtf8Text");
        assertThat(expected.closedBy()).isEqualTo("client 1000");
        assertThat(expected.calls()).contains("onMessage a\uFFFD(");
        assertThat(weft.closedBy()).isEqualTo("server 1007");
        assertThat(weft.received()).isEmpty();
        assertThat(weft.calls()).containsExactly("onOpen", "onClose 1007");
        assertThat(weft.events()).containsExactly("open /failing/handled after @OnOpen", "closed");
    }

    private Observed play(String name) throws Exception {
        assertThat(server).isInstanceOf(WeftEmbeddedServer.class);
        return WebSocketScenarios.play(server.getURI(), log, WebSocketScenarios.ALL.get(name));
    }

    private Observed assertSameAsNetty(String name) throws Exception {
        Observed expected = netty.get(name);
        assertThat(expected).as("Netty's recorded session " + name).isNotNull();
        Observed actual = play(name);
        assertThat(actual.received()).as(name + ": messages received").isEqualTo(expected.received());
        assertThat(actual.closedBy()).as(name + ": closed by").isEqualTo(expected.closedBy());
        assertThat(actual.calls()).as(name + ": calls of the socket's methods").isEqualTo(expected.calls());
        assertThat(actual.events()).as(name + ": events").isEqualTo(expected.events());
        return actual;
    }
}
