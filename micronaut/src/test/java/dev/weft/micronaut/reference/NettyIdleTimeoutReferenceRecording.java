package dev.weft.micronaut.reference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.micronaut.app.SocketLog;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.Map;

/**
 * Run only by the {@code netty-reference} execution: with only {@code micronaut.server.idle-timeout} (3 s) set, records what Micronaut's Netty server does with
 * each {@link TimeoutScenarios} client.
 */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NettyIdleTimeoutReferenceRecording implements TestPropertyProvider {

    @Inject
    EmbeddedServer server;

    @Inject
    SocketLog log;

    @Override
    public Map<String, String> getProperties() {
        return TimeoutScenarios.IDLE_TIMEOUT.properties();
    }

    @Test
    void recordWhatNettyDoesWithStalledAndIdleClients() throws Exception {
        assertThat(server.getClass().getName()).contains("Netty");
        TimeoutScenarios.recordNetty(server.getURI(), log, TimeoutScenarios.IDLE_TIMEOUT);
    }
}
