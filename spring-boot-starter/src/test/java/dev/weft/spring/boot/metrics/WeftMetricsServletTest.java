package dev.weft.spring.boot.metrics;

import dev.weft.httpserver.testing.Await;
import dev.weft.spring.boot.servlet.WeftServletWebServer;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A servlet application on Weft's servlet server: the {@code weft.*} meters bind to its engine server as they do
 * for WebFlux, and count its requests.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftMetricsServletTest {

    private ConfigurableApplicationContext context;

    @AfterEach
    void close() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void weftMetersBindToTheServletServerAndCountItsRequests() throws Exception {
        context = new SpringApplicationBuilder(ServletApp.class).web(WebApplicationType.SERVLET)
                .properties("server.port=0", "spring.main.banner-mode=off").run();
        ServletWebServerApplicationContext web = (ServletWebServerApplicationContext) context;
        assertThat(web.getWebServer()).isInstanceOf(WeftServletWebServer.class);
        assertThat(context.getBean(WeftMetricsBinder.class).boundServers()).containsExactly("application");
        MeterRegistry registry = context.getBean(MeterRegistry.class);
        double before = requests(registry);

        try (HttpClient client = HttpClient.newHttpClient()) {
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + web.getWebServer().getPort() + "/hello")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(response.body()).isEqualTo("hello");
            }
        }

        // the engine counts an exchange as it ends, after the client has its response, and the meters re-read the
        // counters at most every 100 ms
        Await.value("weft.requests to count the three requests", () -> requests(registry),
                after -> after - before == 3);
        assertThat(registry.find("weft.connections.active").gauge()).isNotNull();
    }

    private static double requests(MeterRegistry registry) {
        FunctionCounter counter = registry.find("weft.requests").functionCounter();
        assertThat(counter).as("weft.requests").isNotNull();
        return counter.count();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class ServletApp {

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        ServletRegistrationBean<HttpServlet> hello() {
            return new ServletRegistrationBean<>(new HttpServlet() {
                @Override
                protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                    resp.getWriter().print("hello");
                }
            }, "/hello");
        }
    }
}
