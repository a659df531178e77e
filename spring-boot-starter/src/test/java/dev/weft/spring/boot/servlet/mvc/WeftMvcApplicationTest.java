package dev.weft.spring.boot.servlet.mvc;

import dev.weft.spring.boot.Curl;
import dev.weft.spring.boot.servlet.WeftServletWebServer;
import jakarta.servlet.ServletContext;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.client.RestClient;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring MVC application whose class path is Spring MVC without Tomcat plus this starter runs on Weft with no
 * configuration, and serves MVC's features: JSON, forward and include, {@code DeferredResult} timeouts,
 * server-sent events, Actuator and the {@code server.servlet.*} settings.
 */
@OnWeft
class WeftMvcApplicationTest {

    @LocalServerPort
    int port;

    @Autowired
    ServletWebServerApplicationContext context;

    private final HttpClient http = HttpClient.newHttpClient();

    private RestClient rest() {
        return RestClient.builder().baseUrl("http://127.0.0.1:" + port)
                .defaultStatusHandler(HttpStatusCode::isError, (request, response) -> { })
                .build();
    }

    @Test
    void springMvcWithoutTomcatPlusTheStarterRunsOnWeft() {
        assertThat(WebApplicationType.deduce()).isEqualTo(WebApplicationType.SERVLET);
        assertThat(context.getWebServer()).isInstanceOf(WeftServletWebServer.class);
        assertThat(context.getWebServer().getPort()).isEqualTo(port);
    }

    @Test
    void aJsonApiAnswersThroughRestClient() {
        Map<String, Object> greeting = json("/api/greeting?name=weft");

        assertThat(greeting).containsEntry("message", "hello weft").containsEntry("length", 10);
    }

    @Test
    void aForwardReachesTheTargetHandler() {
        Map<String, Object> greeting = json("/forward");

        assertThat(greeting).containsEntry("message", "hello forwarded");
    }

    @Test
    void anIncludeIsWrittenInsideTheIncludingResponse() {
        assertThat(rest().get().uri("/include").retrieve().body(String.class)).isEqualTo("[Hello World]");
    }

    @Test
    void aDeferredResultThatTimesOutIsAnswered503() throws Exception {
        HttpResponse<String> response = get("/deferred", "application/json");

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.body()).contains("\"status\":503").doesNotContain("Exception");
    }

    @Test
    void serverSentEventsStreamToCurlN() throws Exception {
        String events = Curl.run("-N", "-H", "Accept: text/event-stream", url("/events")).text();

        assertThat(events).isEqualTo("event:tick\ndata:event 1\n\nevent:tick\ndata:event 2\n\n"
                + "event:tick\ndata:event 3\n\n");
    }

    @Test
    void serverSentEventsStreamOverH2c() throws Exception {
        String events = Curl.run("-N", "--http2-prior-knowledge", "-H", "Accept: text/event-stream",
                url("/events")).text();

        assertThat(events).contains("data:event 1", "data:event 3");
    }

    @Test
    void actuatorHealthIsUp() {
        Map<String, Object> health = json("/actuator/health");

        assertThat(health).containsEntry("status", "UP");
    }

    @Test
    void requestsAreMeasuredAsHttpServerRequests() throws Exception {
        get("/api/greeting", "application/json");

        Map<String, Object> metric = json("/actuator/metrics/http.server.requests?tag=uri:/api/greeting");

        assertThat(metric).containsEntry("name", "http.server.requests");
        assertThat(metric.get("measurements").toString()).contains("COUNT");
    }

    @Test
    void servletContextSettingsComeFromServerServletProperties() throws Exception {
        ServletContext servletContext = ((WeftServletWebServer) context.getWebServer()).getContainer()
                .servletContext();

        assertThat(servletContext.getInitParameter("greeting")).isEqualTo("hi");
        assertThat(servletContext.getServerInfo()).startsWith("Weft");
    }

    private Map<String, Object> json(String path) {
        return rest().get().uri(path).retrieve().body(new ParameterizedTypeReference<>() { });
    }

    HttpResponse<String> get(String path, String accept) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url(path))).header("Accept", accept).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

}
