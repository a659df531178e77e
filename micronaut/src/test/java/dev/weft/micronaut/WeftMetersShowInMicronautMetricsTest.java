package dev.weft.micronaut;

import io.micronaut.context.annotation.Property;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code micronaut-micrometer-core}, {@code weft-micrometer} and {@code micronaut-management} on the class
 * path, {@code GET /metrics} lists the engine's {@code weft.*} meters next to Micronaut's own, and a meter reads
 * the running server tagged with the application's name.
 */
@MicronautTest
@Property(name = "endpoints.metrics.sensitive", value = "false")
class WeftMetersShowInMicronautMetricsTest {

    @Inject
    EmbeddedServer server;

    private String get(String path) throws Exception {
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(server.getURI().resolve(path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(path).isEqualTo(200);
            return response.body();
        }
    }

    @Test
    void metricsEndpointListsTheEngineMetersAndHttpServerRequests() throws Exception {
        get("/sample/hello");
        String names = get("/metrics");
        assertThat(names).contains("\"weft.connections.active\"", "\"weft.connections.accepted\"",
                "\"weft.exchanges.active\"", "\"weft.requests\"", "\"weft.bytes.received\"", "\"weft.bytes.sent\"",
                "\"weft.websocket.sessions.active\"", "\"http.server.requests\"");
    }

    @Test
    void anEngineMeterCountsThisServersRequestsUnderTheServerTag() throws Exception {
        get("/sample/hello");
        assertThat(get("/metrics/weft.connections.accepted"))
                .contains("\"availableTags\":[{\"tag\":\"server\",\"values\":[\"weft-sample\"]}]");
        assertThat(get("/metrics/weft.connections.accepted?tag=server:weft-sample"))
                .contains("\"statistic\":\"COUNT\"").doesNotContain("\"value\":0.0");
    }
}
