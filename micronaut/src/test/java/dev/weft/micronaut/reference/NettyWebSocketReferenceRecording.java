package dev.weft.micronaut.reference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.micronaut.app.SocketLog;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Run only by the {@code netty-reference} execution: plays every {@link WebSocketScenarios} session against the
 * sample application's sockets on Micronaut's Netty server and records what the client received, who closed the
 * session with which code, the calls of the socket's methods and the lifecycle events published.
 */
@MicronautTest
class NettyWebSocketReferenceRecording {

    @Inject
    EmbeddedServer server;

    @Inject
    SocketLog log;

    @Test
    void recordNettysWebSocketSessions() throws Exception {
        assertThat(server.getClass().getName()).contains("Netty");
        Map<String, WebSocketScenarios.Observed> observed = new LinkedHashMap<>();
        for (WebSocketScenarios.Scenario scenario : WebSocketScenarios.ALL.values()) {
            observed.put(scenario.name(), WebSocketScenarios.play(server.getURI(), log, scenario));
        }
        Recordings.save(WebSocketScenarios.toProperties(observed), WebSocketScenarios.RECORDING,
                "Micronaut's Netty server in WebSocketScenarios");
    }
}
