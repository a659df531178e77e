package dev.weft.micronaut;

import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A named application ({@code micronaut.application.name} is set for the sample app) is announced ready once Weft
 * serves it, as on Netty: {@code /health}, whose {@code service} indicator waits for that announcement, is UP.
 */
@MicronautTest
class NamedApplicationIsHealthyTest {

    @Inject
    EmbeddedServer server;

    @Test
    void healthIsUpOnceTheServerServes() throws Exception {
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> response = client.send(
                    HttpRequest.newBuilder(server.getURI().resolve("/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("\"status\":\"UP\"");
        }
    }
}
