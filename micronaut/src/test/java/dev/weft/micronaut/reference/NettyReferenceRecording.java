package dev.weft.micronaut.reference;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Run only by the {@code netty-reference} execution, where Micronaut's Netty server is the embedded server: sends
 * every {@link ReferenceExchanges} request to the sample application and records the answers for the Weft tests.
 */
@MicronautTest
class NettyReferenceRecording {

    @Inject
    EmbeddedServer server;

    @Test
    void recordNettysAnswers() throws Exception {
        assertThat(server.getClass().getName()).contains("Netty");
        Map<String, ReferenceExchanges.Answer> answers = new LinkedHashMap<>();
        try (HttpClient client = ReferenceExchanges.client()) {
            for (ReferenceExchanges.Exchange exchange : ReferenceExchanges.ALL.values()) {
                answers.put(exchange.name(), ReferenceExchanges.send(client, server.getURI(), exchange));
            }
        }
        ReferenceExchanges.save(answers, ReferenceExchanges.RECORDING);
    }
}
