package dev.weft.spring.boot.metrics;

import dev.weft.httpserver.testing.Await;
import dev.weft.micrometer.WeftMetrics;
import dev.weft.spring.boot.WeftWebServer;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A WebFlux application on Weft with Actuator: the weft.* meters and http.server.requests. */
@SpringBootTest(classes = WeftMetricsSpringBootTest.MetricsApp.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = "management.endpoints.web.exposure.include=health,metrics")
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftMetricsSpringBootTest {

    private final ActuatorMetrics actuator = new ActuatorMetrics();

    @LocalServerPort
    private int port;

    @Autowired
    private WebServerApplicationContext context;

    @Autowired
    private WeftMetricsBinder binder;

    @Autowired
    private MeterRegistry registry;

    private HttpResponse<String> get(String path) {
        return actuator.get(port, path);
    }

    @Test
    void bindsToTheRunningWeftServer() {
        assertThat(context.getWebServer()).isInstanceOf(WeftWebServer.class);
        assertThat(binder.boundServers()).containsExactly("application");
        assertThat(registry.find("weft.errors").functionCounters()).isNotEmpty();
        assertThat(registry.find("weft.requests").functionCounters()).singleElement()
                .satisfies(c -> assertThat(c.getId().getTag(WeftMetrics.SERVER_TAG)).isEqualTo("application"));
    }

    @Test
    void metricsEndpointListsTheWeftMeters() throws Exception {
        List<String> names = new ArrayList<>();
        actuator.json(port, "/actuator/metrics").get("names").forEach(n -> names.add(n.asString()));
        assertThat(names).contains("weft.connections.active", "weft.exchanges.active", "weft.connections.accepted",
                "weft.connections.rejected", "weft.connections.closed", "weft.requests", "weft.bytes.received",
                "weft.bytes.sent", "weft.handler.exceptions", "weft.errors", "weft.http2.connections",
                "weft.http2.streams.opened", "weft.http2.streams.active", "weft.http2.streams.reset",
                "weft.http2.goaways", "weft.websocket.sessions.active", "weft.websocket.sessions.opened",
                "weft.websocket.messages", "weft.websocket.protocol.closes", "weft.proxy.requests.forwarded",
                "weft.proxy.tunnels.opened", "weft.proxy.tunnels.active", "weft.proxy.denied",
                "weft.proxy.upstream.failures", "weft.proxy.tunnel.bytes");
    }

    @Test
    void weftRequestsCountsServedRequests() throws Exception {
        double before = requestsMeasured();
        for (int i = 0; i < 3; i++) {
            assertThat(get("/hello").statusCode()).isEqualTo(200);
        }
        // the meters re-read the server's counters at most every 100 ms; the three /hello requests plus the
        // metrics request that reads the count
        Await.value("weft.requests to count the three requests", this::requestsMeasured, after -> after >= before + 4);
    }

    private double requestsMeasured() {
        return actuator.measured(port, "/actuator/metrics/weft.requests");
    }

    @Test
    void httpServerRequestsRecordsSuccessfulOutcomes() throws Exception {
        assertThat(get("/hello").statusCode()).isEqualTo(200);

        // the observation is stopped when the response completes, possibly just after the client saw it
        List<String> outcomes = Await.value("a SUCCESS outcome", this::outcomes, o -> o.contains("SUCCESS"));
        assertThat(outcomes).doesNotContain("UNKNOWN");
    }

    private List<String> outcomes() {
        return actuator.tagValues(port, "/actuator/metrics/http.server.requests", "outcome");
    }

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import(HelloController.class)
    static class MetricsApp {
    }

    @RestController
    static class HelloController {
        @GetMapping("/hello")
        String hello() {
            return "hello";
        }
    }
}
