package dev.weft.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.micronaut.app.SocketLog;
import dev.weft.micronaut.reference.TimeoutScenarios;
import dev.weft.micronaut.reference.TimeoutScenarios.Observed;
import dev.weft.micronaut.server.WeftEmbeddedServer;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import java.util.Map;

/**
 * What the timeout tests share: Weft run under one of {@link TimeoutScenarios}' settings, the scenarios played
 * against it, and what Micronaut's Netty server did with the same clients under the same settings.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TimeoutScenarioTest implements TestPropertyProvider {

    private final TimeoutScenarios.Settings settings;

    /** Netty's observations, by scenario. */
    Map<String, Observed> netty;

    @Inject
    EmbeddedServer server;

    @Inject
    SocketLog log;

    TimeoutScenarioTest(TimeoutScenarios.Settings settings) {
        this.settings = settings;
    }

    @Override
    public Map<String, String> getProperties() {
        return settings.properties();
    }

    @BeforeAll
    void loadNettysObservations() throws Exception {
        netty = TimeoutScenarios.load(settings.recording());
    }

    /** Plays {@code scenario} against Weft. */
    Observed play(String scenario) throws Exception {
        assertThat(server).isInstanceOf(WeftEmbeddedServer.class);
        return TimeoutScenarios.play(scenario, server.getURI(), log, settings);
    }
}
