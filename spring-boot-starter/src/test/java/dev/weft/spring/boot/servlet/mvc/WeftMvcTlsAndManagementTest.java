package dev.weft.spring.boot.servlet.mvc;

import dev.weft.httpserver.testing.Await;
import dev.weft.spring.boot.Curl;
import dev.weft.spring.boot.TestCertificates;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementContextFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An MVC application on Weft with an SSL bundle and {@code server.http2.enabled}: clients offering {@code h2}
 * by ALPN get HTTP/2; Actuator runs on a separate cleartext management port, in a servlet child context on a
 * second Weft server, and both servers' {@code weft.*} meters are bound.
 */
@SpringBootTest(classes = MvcTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
                "server.http2.enabled=true",
                "server.ssl.bundle=weft",
                "server.server-header=weft-mvc",
                "spring.ssl.bundle.jks.weft.keystore.type=PKCS12",
                "spring.ssl.bundle.jks.weft.keystore.password=" + TestCertificates.PASSWORD,
                "management.server.port=0",
                "management.server.ssl.enabled=false",
                "management.endpoints.web.exposure.include=health" })
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftMvcTlsAndManagementTest {

    private static final TestCertificates certificates = TestCertificates.shared();

    @DynamicPropertySource
    static void keyStore(DynamicPropertyRegistry registry) {
        registry.add("spring.ssl.bundle.jks.weft.keystore.location",
                () -> certificates.serverKeyStore.toUri().toString());
    }

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    ApplicationContext context;

    @Autowired
    MeterRegistry registry;

    @Test
    void theJdkClientGetsHttp2OverTls() throws Exception {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .sslContext(certificates.clientContext(false)).connectTimeout(Duration.ofSeconds(20)).build()) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                    URI.create("https://localhost:" + port + "/api/greeting?name=h2")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(response.body()).contains("\"message\":\"hello h2\"");
        }
    }

    @Test
    void curlNegotiatesH2ByAlpnAndStreamsServerSentEvents() throws Exception {
        String out = Curl.run("-k", "-N", "--http2", "-H", "Accept: text/event-stream", "-w", "%{http_version}",
                "https://localhost:" + port + "/events").text();

        assertThat(out).contains("data:event 1", "data:event 3").endsWith("2");
    }

    @Test
    void actuatorRunsOnTheManagementPortOnWeft() throws Exception {
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> health = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + managementPort + "/actuator/health")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(managementPort).isPositive().isNotEqualTo(port);
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"status\":\"UP\"");
            assertThat(health.headers().firstValue("Server")).hasValue("weft-mvc");
        }
        assertThat(context.getBean(ManagementContextFactory.class))
                .isSameAs(context.getBean("weftServletWebChildContextFactory"));
    }

    @Test
    void theWeftMetersOfBothServersAreBoundAndToldApartByTheServerTag() throws Exception {
        assertThat(registry.find("weft.requests").functionCounters())
                .extracting(counter -> counter.getId().getTag("server"))
                .containsExactlyInAnyOrder("application", "management");
        double before = requests("management");

        try (HttpClient client = HttpClient.newHttpClient()) {
            assertThat(client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + managementPort + "/actuator/health")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        }
        // the engine counts an exchange as it ends, and the meters re-read the counters at most every 100 ms
        Await.value("weft.requests{server=management} to count the health request", () -> requests("management"),
                after -> after >= before + 1);
    }

    private double requests(String server) {
        return registry.get("weft.requests").tag("server", server).functionCounter().count();
    }

    @Test
    void actuatorIsNotOnTheApplicationPort() throws Exception {
        String status = Curl.run("-k", "-o", "/dev/null", "-w", "%{http_code}",
                "https://localhost:" + port + "/actuator/health").text();

        assertThat(status).isEqualTo("404");
    }
}
