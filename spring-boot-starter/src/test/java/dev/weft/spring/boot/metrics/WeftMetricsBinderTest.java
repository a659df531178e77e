package dev.weft.spring.boot.metrics;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.Await;
import dev.weft.micrometer.WeftMetrics;
import dev.weft.spring.boot.WeftWebServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerInitializedEvent;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** Which servers the binder binds, under which tag, and for how long; real Weft web servers, no application. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftMetricsBinderTest {

    @Test
    void bindsNothingForAWebServerThatIsNotWeft() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        WeftMetricsBinder binder = new WeftMetricsBinder(registry, Tags.empty());
        WebServer other = new WebServer() {
            @Override
            public void start() {
            }

            @Override
            public void stop() {
            }

            @Override
            public int getPort() {
                return 8080;
            }
        };

        binder.onApplicationEvent(new ReactiveWebServerInitializedEvent(other,
                new ReactiveWebServerApplicationContext()));

        assertThat(binder.isBound()).isFalse();
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void bindsEachWeftServerOnceTaggedWithItsServerNamespaceAndFollowsItAcrossRestarts() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        WeftMetricsBinder binder = new WeftMetricsBinder(registry, Tags.of("app", "test"));
        WeftWebServer application = server();
        WeftWebServer management = server();
        ReactiveWebServerApplicationContext managementContext = new ReactiveWebServerApplicationContext();
        managementContext.setServerNamespace("management");
        ReactiveWebServerInitializedEvent applicationStarted = new ReactiveWebServerInitializedEvent(application,
                new ReactiveWebServerApplicationContext());
        try (HttpClient client = HttpClient.newHttpClient()) {
            application.start();
            management.start();
            binder.onApplicationEvent(applicationStarted);
            binder.onApplicationEvent(new ReactiveWebServerInitializedEvent(management, managementContext));
            binder.onApplicationEvent(applicationStarted);
            assertThat(binder.boundServers()).containsExactly("application", "management");
            assertThat(registry.find("weft.requests").tag("app", "test").functionCounters()).hasSize(2);
            int meters = registry.getMeters().size();

            get(client, application, 2);
            get(client, management, 1);
            awaitRequests(registry, "application", 2);
            awaitRequests(registry, "management", 1);

            // a restart runs a new engine server, whose counters start again; the meters follow it
            application.stop();
            application.start();
            binder.onApplicationEvent(applicationStarted);
            get(client, application, 1);
            awaitRequests(registry, "application", 1);
            assertThat(registry.getMeters()).hasSize(meters);
        } finally {
            application.destroy();
            management.destroy();
        }

        binder.destroy();
        assertThat(registry.getMeters()).isEmpty();
        assertThat(binder.isBound()).isFalse();
    }

    private static WeftWebServer server() {
        return new WeftWebServer(exchange -> {
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        }, ServerConfig.defaults(), new InetSocketAddress("127.0.0.1", 0), null, Shutdown.IMMEDIATE);
    }

    private static void get(HttpClient client, WeftWebServer server, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            HttpResponse<Void> response = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.getPort() + "/")).build(),
                    HttpResponse.BodyHandlers.discarding());
            assertThat(response.statusCode()).isEqualTo(204);
        }
    }

    /** The engine counts an exchange as it ends, and the meters re-read it at most every 100 ms. */
    private static void awaitRequests(MeterRegistry registry, String server, double expected) {
        Await.value("weft.requests{server=" + server + "} to read " + expected,
                () -> registry.get("weft.requests").tag(WeftMetrics.SERVER_TAG, server).functionCounter().count(),
                count -> count == expected);
    }
}
