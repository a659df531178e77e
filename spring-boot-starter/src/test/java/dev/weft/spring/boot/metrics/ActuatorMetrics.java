package dev.weft.spring.boot.metrics;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A client of a running application and of its Actuator metrics endpoint, over real HTTP/1.1 connections. */
final class ActuatorMetrics {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    /** {@code GET path} on the server at {@code port}. */
    HttpResponse<String> get(int port, String path) {
        try {
            return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** The JSON that {@code path} answers on the server at {@code port}, which must answer 200. */
    JsonNode json(int port, String path) {
        HttpResponse<String> response = get(port, path);
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    /** The first measurement of the meter at {@code path} ({@code /actuator/metrics/name?tag=...}). */
    double measured(int port, String path) {
        return json(port, path).get("measurements").get(0).get("value").asDouble();
    }

    /**
     * The values of the tag {@code tag} that Actuator lists for the meter at {@code path}; none while the meter
     * does not exist.
     */
    List<String> tagValues(int port, String path, String tag) {
        HttpResponse<String> response = get(port, path);
        List<String> values = new ArrayList<>();
        if (response.statusCode() != 200) {
            return values;
        }
        for (JsonNode available : JSON.readTree(response.body()).get("availableTags")) {
            if (available.get("tag").asString().equals(tag)) {
                available.get("values").forEach(v -> values.add(v.asString()));
            }
        }
        return values;
    }
}
