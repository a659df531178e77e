package dev.weft.spring.boot.metrics;

import dev.weft.httpserver.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.net.http.HttpResponse;
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

    private final ActuatorMetrics actuator = new ActuatorMetrics();

    @LocalServerPort
    private int port;

    @LocalManagementPort
    private int managementPort;

    @Autowired
    private WeftMetricsBinder binder;

    @Test
    void bothServersAreBoundEachWithItsServerTag() {
        assertThat(managementPort).isPositive().isNotEqualTo(port);
        assertThat(binder.boundServers()).containsExactly("application", "management");

        assertThat(actuator.tagValues(managementPort, "/actuator/metrics/weft.requests", "server"))
                .containsExactlyInAnyOrder("application", "management");
    }

    @Test
    void eachServerCountsItsOwnRequests() {
        double before = measured("server:application");
        for (int i = 0; i < 3; i++) {
            assertThat(actuator.get(port, "/hello").statusCode()).isEqualTo(200);
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
            HttpResponse<String> response = actuator.get(managementPort,
                    "/actuator/metrics/" + name + "?tag=server:management");
            assertThat(response.statusCode()).as(name).isEqualTo(200);
        }
    }

    private double measured(String tag) {
        return actuator.measured(managementPort, "/actuator/metrics/weft.requests?tag=" + tag);
    }
}
