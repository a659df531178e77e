package dev.weft.micronaut.reference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.micronaut.SecuredApplication;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpClient;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Run only by the {@code netty-reference} execution: the sample application with micronaut-security on
 * ({@link SecuredApplication#PROPERTIES}) on Micronaut's Netty server answers {@link ReferenceExchanges#SECURED};
 * the answers are recorded for {@code WeftAnswersAsNettyDoesWhenSecuredTest}.
 */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NettySecuredReferenceRecording implements TestPropertyProvider {

    @Inject
    EmbeddedServer server;

    @Override
    public Map<String, String> getProperties() {
        return SecuredApplication.PROPERTIES;
    }

    @Test
    void recordNettysAnswersWithSecurityOn() throws Exception {
        assertThat(server.getClass().getName()).contains("Netty");
        Map<String, ReferenceExchanges.Answer> answers = new LinkedHashMap<>();
        try (HttpClient client = ReferenceExchanges.client()) {
            for (ReferenceExchanges.Exchange exchange : ReferenceExchanges.SECURED.values()) {
                answers.put(exchange.name(), ReferenceExchanges.send(client, server.getURI(), exchange));
            }
        }
        ReferenceExchanges.save(answers, ReferenceExchanges.SECURED_RECORDING);
    }
}
