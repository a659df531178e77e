package dev.weft.spring.boot.metrics;

import dev.weft.httpserver.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
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

/**
 * A WebFlux application with Actuator on a separate management port, a second Weft server: both servers are
 * metered, told apart by the {@code server} tag, and Actuator on the management port shows both.
 */
@SpringBootTest(classes = WeftMetricsSpringBootTest.MetricsApp.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "management.server.port=0", "management.endpoints.web.exposure.include=health,metrics" })
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftMetricsManagementPortTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    @LocalServerPort
    private int port;

    @LocalManagementPort
    private int managementPort;

    @Autowired
    private WeftMetricsBinder binder;

    private HttpResponse<String> get(int port, String path) {
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

    @Test
    void bothServersAreBoundEachWithItsServerTag() {
        assertThat(managementPort).isPositive().isNotEqualTo(port);
        assertThat(binder.boundServers()).containsExactly("application", "management");

        JsonNode requests = metric("/actuator/metrics/weft.requests");
        List<String> servers = new ArrayList<>();
        for (JsonNode tag : requests.get("availableTags")) {
            if (tag.get("tag").asString().equals("server")) {
                tag.get("values").forEach(v -> servers.add(v.asString()));
            }
        }
        assertThat(servers).containsExactlyInAnyOrder("application", "management");
    }

    @Test
    void eachServerCountsItsOwnRequests() {
        double before = measured("server:application");
        for (int i = 0; i < 3; i++) {
            assertThat(get(port, "/hello").statusCode()).isEqualTo(200);
        }

        // the application's count moves by the three /hello requests only: the reads go to the management server
        Await.value("weft.requests{server=application} to count the three requests",
                () -> measured("server:application"), after -> after == before + 3);
        // the management server counts the reads themselves
        double management = measured("server:management");
        Await.value("weft.requests{server=management} to count a later read",
                () -> measured("server:management"), after -> after > management);
    }

    @Test
    void everyWeftMeterIsThereForTheManagementServer() {
        for (String name : List.of("weft.connections.active", "weft.exchanges.active", "weft.connections.accepted",
                "weft.connections.closed", "weft.requests", "weft.bytes.received", "weft.bytes.sent",
                "weft.handler.exceptions", "weft.errors", "weft.http2.connections", "weft.http2.streams.active",
                "weft.http2.goaways", "weft.websocket.sessions.active", "weft.websocket.messages",
                "weft.proxy.tunnels.active", "weft.proxy.tunnel.bytes")) {
            HttpResponse<String> response = get(managementPort, "/actuator/metrics/" + name + "?tag=server:management");
            assertThat(response.statusCode()).as(name).isEqualTo(200);
        }
    }

    private double measured(String tag) {
        return metric("/actuator/metrics/weft.requests?tag=" + tag).get("measurements").get(0).get("value")
                .asDouble();
    }

    private JsonNode metric(String path) {
        HttpResponse<String> response = get(managementPort, path);
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
