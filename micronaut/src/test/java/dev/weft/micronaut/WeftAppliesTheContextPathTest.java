package dev.weft.micronaut;

import io.micronaut.context.annotation.Property;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code micronaut.server.context-path}: routes answer under it only, and {@code getContextURI()} includes it. */
@MicronautTest
@Property(name = "micronaut.server.context-path", value = "/api")
class WeftAppliesTheContextPathTest {

    @Inject
    EmbeddedServer server;

    private HttpResponse<String> get(URI uri) throws Exception {
        try (HttpClient client = HttpClient.newHttpClient()) {
            return client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    @Test
    void routesAnswerUnderTheContextPath() throws Exception {
        HttpResponse<String> response = get(server.getURI().resolve("/api/sample/hello"));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("Hello from Weft");
    }

    @Test
    void routesAreNotFoundWithoutTheContextPath() throws Exception {
        assertThat(get(server.getURI().resolve("/sample/hello")).statusCode()).isEqualTo(404);
    }

    @Test
    void contextUriEndsWithTheContextPath() {
        assertThat(server.getContextURI().toString()).isEqualTo(server.getURI() + "/api");
    }
}
