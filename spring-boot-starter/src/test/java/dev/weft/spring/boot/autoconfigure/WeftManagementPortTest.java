package dev.weft.spring.boot.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementContextFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Actuator on a separate management port runs on a second Weft server. */
@SpringBootTest(classes = WeftTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = "management.server.port=0")
@Timeout(60)
class WeftManagementPortTest {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    ApplicationContext context;

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    @Test
    void healthIsServedByWeftOnTheManagementPort() throws Exception {
        HttpResponse<String> response = get(managementPort, "/actuator/health");

        assertThat(managementPort).isPositive().isNotEqualTo(port);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"status\":\"UP\"");
        assertThat(response.headers().firstValue("Server")).hasValue("Weft");
    }

    @Test
    void actuatorIsNotOnTheApplicationPort() throws Exception {
        assertThat(get(port, "/actuator/health").statusCode()).isEqualTo(404);
    }

    @Test
    void weftManagementContextFactoryIsPreferredOverReactorNettys() {
        assertThat(context.getBean(ManagementContextFactory.class))
                .isSameAs(context.getBean("weftReactiveWebChildContextFactory"));
        assertThat(context.getBeansOfType(ManagementContextFactory.class)).containsKey("reactiveWebChildContextFactory");
    }

    private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(10))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
