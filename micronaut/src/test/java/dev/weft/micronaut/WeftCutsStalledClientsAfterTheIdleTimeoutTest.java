package dev.weft.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.micronaut.reference.TimeoutScenarios;
import dev.weft.micronaut.reference.TimeoutScenarios.Observed;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

/**
 * {@code micronaut.server.idle-timeout} (3 s here, {@code read-timeout} unset) on Weft, compared with what
 * Micronaut's Netty server did with the same clients ({@code NettyIdleTimeoutReferenceRecording}): Netty ends a
 * connection on which nothing has moved for the idle timeout, whatever state it is in, and closes an idle
 * WebSocket session with 1001. Weft ends the same connections after the same time; where a request was under way
 * it answers {@code 408} before closing (a documented difference: Netty closes without an answer).
 */
@MicronautTest
class WeftCutsStalledClientsAfterTheIdleTimeoutTest extends TimeoutScenarioTest {

    private static final long IDLE_SECONDS = 3;

    WeftCutsStalledClientsAfterTheIdleTimeoutTest() {
        super(TimeoutScenarios.IDLE_TIMEOUT);
    }

    @Test
    void aRequestHeadThatStallsIsCutAfterTheIdleTimeout() throws Exception {
        Observed weft = play("stalledHead");
        Observed expected = netty.get("stalledHead");
        assertThat(expected.answer()).isEqualTo("none");
        assertThat(expected.endedAfterSeconds()).isEqualTo(IDLE_SECONDS);
        assertThat(weft.answer()).startsWith("HTTP/1.1 408 ");
        assertEndedAboutWhenNettyDid(weft, expected);
    }

    @Test
    void aRequestBodyThatStallsIsCutAfterTheIdleTimeout() throws Exception {
        Observed weft = play("stalledBody");
        Observed expected = netty.get("stalledBody");
        assertThat(expected.answer()).isEqualTo("none");
        assertThat(weft.answer()).startsWith("HTTP/1.1 408 ");
        assertEndedAboutWhenNettyDid(weft, expected);
    }

    /**
     * Five pieces of a body, one every 800 ms: four seconds in all, longer than the idle timeout, but never idle for
     * it (and within the 5 s the engine allows before its minimum data rate applies, which Netty does not have).
     */
    @Test
    void aSlowBodyThatKeepsComingIsServed() throws Exception {
        Observed weft = play("slowBody");
        assertThat(weft.answer()).isEqualTo(netty.get("slowBody").answer()).isEqualTo("HTTP/1.1 200 OK | got 100 bytes");
    }

    @Test
    void anIdleKeepAliveConnectionIsClosedAfterTheIdleTimeout() throws Exception {
        Observed weft = play("idleKeepAlive");
        Observed expected = netty.get("idleKeepAlive");
        assertThat(weft.answer()).isEqualTo(expected.answer()).isEqualTo("HTTP/1.1 200 OK | Hello from Weft");
        assertEndedAboutWhenNettyDid(weft, expected);
    }

    /** The idle timeout applies to WebSocket sessions too: closed with 1001 (Going Away), as on Netty. */
    @Test
    void anIdleWebSocketSessionIsClosedWith1001AfterTheIdleTimeout() throws Exception {
        Observed weft = play("idleWebSocket");
        Observed expected = netty.get("idleWebSocket");
        assertThat(weft.answer()).isEqualTo(expected.answer()).isEqualTo("close 1001, @OnClose onClose 1001");
        assertEndedAboutWhenNettyDid(weft, expected);
    }

    /** Both times are whole seconds rounded down; they may fall either side of a second. */
    private static void assertEndedAboutWhenNettyDid(Observed weft, Observed netty) {
        assertThat(weft.endedAfterSeconds()).as("seconds until the connection ended (Netty: "
                + netty.endedAfterSeconds() + ")").isBetween(netty.endedAfterSeconds() - 1,
                netty.endedAfterSeconds() + 1);
        assertThat(weft.endedAfterSeconds()).isBetween(IDLE_SECONDS - 1, IDLE_SECONDS + 1);
    }
}
