package dev.weft.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.micronaut.reference.TimeoutScenarios;
import dev.weft.micronaut.reference.TimeoutScenarios.Observed;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

/**
 * {@code micronaut.server.read-timeout} (2 s here, under an {@code idle-timeout} of 5 s) on Weft: the time allowed
 * for a request's header section and for each wait for its body. A documented difference (docs/micronaut.md):
 * Micronaut's Netty server ignores the setting (Micronaut 4 deprecates it as doing nothing), as its recording
 * ({@code NettyReadTimeoutReferenceRecording}) shows, and cuts the same stalled clients only at the idle timeout,
 * without an answer. Weft answers {@code 408} and closes after the read timeout.
 */
@MicronautTest
class WeftCutsStalledClientsAfterTheReadTimeoutTest extends TimeoutScenarioTest {

    private static final long READ_SECONDS = 2;
    private static final long IDLE_SECONDS = 5;

    WeftCutsStalledClientsAfterTheReadTimeoutTest() {
        super(TimeoutScenarios.READ_TIMEOUT);
    }

    @Test
    void aRequestHeadThatStallsIsAnswered408AndClosedAfterTheReadTimeout() throws Exception {
        Observed weft = play("stalledHead");
        assertThat(weft.answer()).startsWith("HTTP/1.1 408 ");
        assertThat(weft.endedAfterSeconds()).isBetween(READ_SECONDS - 1, READ_SECONDS);
        assertNettyWaitedForTheIdleTimeout("stalledHead");
    }

    @Test
    void aRequestBodyThatStallsIsAnswered408AndClosedAfterTheReadTimeout() throws Exception {
        Observed weft = play("stalledBody");
        assertThat(weft.answer()).startsWith("HTTP/1.1 408 ");
        assertThat(weft.endedAfterSeconds()).isBetween(READ_SECONDS - 1, READ_SECONDS);
        assertNettyWaitedForTheIdleTimeout("stalledBody");
    }

    /** Five pieces of a body, one every 600 ms: three seconds in all, more than the read timeout, but each wait less. */
    @Test
    void aSlowBodyWhosePiecesComeWithinTheReadTimeoutIsServed() throws Exception {
        Observed weft = play("slowBody");
        assertThat(weft.answer()).isEqualTo(netty.get("slowBody").answer())
                .isEqualTo("HTTP/1.1 200 OK | got 100 bytes");
    }

    private void assertNettyWaitedForTheIdleTimeout(String scenario) {
        Observed expected = netty.get(scenario);
        assertThat(expected.answer()).isEqualTo("none");
        assertThat(expected.endedAfterSeconds()).isBetween(IDLE_SECONDS - 1, IDLE_SECONDS + 1);
    }
}
