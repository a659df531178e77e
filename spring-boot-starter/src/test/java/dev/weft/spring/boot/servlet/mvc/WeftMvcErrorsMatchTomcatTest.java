package dev.weft.spring.boot.servlet.mvc;

import dev.weft.spring.boot.servlet.WeftServletWebServerFactory;
import jakarta.servlet.Filter;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Boot's error responses are the same on Weft as on Tomcat: one small Spring MVC application runs on both
 * (each context names its server factory), with Boot's default error settings and with messages and exception
 * names included, and every failure is requested from both in JSON and as the HTML Whitelabel page. Weft's status,
 * content type and body must equal Tomcat's, but for the {@code timestamp}. Boot builds the body from the error
 * dispatch's request attributes, so this holds Weft's {@code jakarta.servlet.error.*} attributes to Tomcat's.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftMvcErrorsMatchTomcatTest {

    /** Boot's error settings the application runs with. */
    enum Settings {
        DEFAULTS,
        MESSAGES_AND_EXCEPTIONS("spring.web.error.include-message=always", "spring.web.error.include-exception=true");

        final String[] properties;

        Settings(String... properties) {
            this.properties = properties;
        }
    }

    private static final List<String> ACCEPTS = List.of("application/json", "text/html");
    private static final Map<Settings, ConfigurableApplicationContext> TOMCAT = new EnumMap<>(Settings.class);
    private static final Map<Settings, ConfigurableApplicationContext> WEFT = new EnumMap<>(Settings.class);

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void start() {
        for (Settings settings : Settings.values()) {
            TOMCAT.put(settings, start(OnTomcat.class, settings));
            WEFT.put(settings, start(OnWeftFactory.class, settings));
        }
    }

    @AfterAll
    static void stop() {
        List<ConfigurableApplicationContext> all = new ArrayList<>(TOMCAT.values());
        all.addAll(WEFT.values());
        all.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void eachApplicationRunsOnTheServerItNames() {
        for (Settings settings : Settings.values()) {
            assertThat(((WebServerApplicationContext) TOMCAT.get(settings)).getWebServer().getClass().getSimpleName())
                    .isEqualTo("TomcatWebServer");
            assertThat(((WebServerApplicationContext) WEFT.get(settings)).getWebServer().getClass().getSimpleName())
                    .isEqualTo("WeftServletWebServer");
        }
    }

    @Test
    void aRuntimeExceptionFromAHandlerShowsItsOwnMessageNotTheServletExceptionWrappingIt() throws Exception {
        Answer detailed = assertSameAsTomcat("/runtime");

        assertThat(detailed.status()).isEqualTo(500);
        assertThat(detailed.body()).contains("\"exception\":\"java.lang.RuntimeException\"", "\"message\":\"boom\"")
                .doesNotContain("Request processing failed", "ServletException");
    }

    @Test
    void aCheckedExceptionFromAHandlerShowsItsOwnMessage() throws Exception {
        Answer detailed = assertSameAsTomcat("/checked");

        assertThat(detailed.status()).isEqualTo(500);
        assertThat(detailed.body()).contains("\"exception\":\"" + StockException.class.getName() + "\"",
                "\"message\":\"out of stock\"").doesNotContain("Request processing failed");
    }

    @Test
    void anIOExceptionFromAHandlerShowsItsOwnMessage() throws Exception {
        Answer detailed = assertSameAsTomcat("/io");

        assertThat(detailed.status()).isEqualTo(500);
        assertThat(detailed.body()).contains("\"exception\":\"java.io.IOException\"", "\"message\":\"disk full\"");
    }

    @Test
    void aWrappedExceptionFromAFilterShowsTheCausesNameAndMessage() throws Exception {
        Answer detailed = assertSameAsTomcat("/filter-failure");

        assertThat(detailed.status()).isEqualTo(500);
        assertThat(detailed.body()).contains("\"exception\":\"java.lang.IllegalStateException\"",
                "\"message\":\"the filter's cause\"").doesNotContain("the filter failed");
    }

    @Test
    void sendErrorWithAMessageShowsThatMessage() throws Exception {
        Answer detailed = assertSameAsTomcat("/send-error-message");

        assertThat(detailed.status()).isEqualTo(500);
        assertThat(detailed.body()).contains("\"message\":\"msg\"");
    }

    @Test
    void sendErrorWithoutAMessageShowsNoMessageAvailable() throws Exception {
        Answer detailed = assertSameAsTomcat("/send-error");

        assertThat(detailed.status()).isEqualTo(503);
        assertThat(detailed.body()).contains("\"message\":\"No message available\"");
    }

    @Test
    void aResponseStatusExceptionShowsItsStatusAndOwnMessage() throws Exception {
        Answer detailed = assertSameAsTomcat("/response-status");

        assertThat(detailed.status()).isEqualTo(409);
        assertThat(detailed.body()).contains("\"message\":\"already taken\"",
                "\"exception\":\"" + TakenException.class.getName() + "\"");
    }

    @Test
    void aResponseStatusReasonShowsTheReason() throws Exception {
        Answer detailed = assertSameAsTomcat("/response-status-reason");

        assertThat(detailed.status()).isEqualTo(410);
        assertThat(detailed.body()).contains("\"message\":\"the item was removed\"");
    }

    @Test
    void anUnknownPathIsTheSame404() throws Exception {
        Answer detailed = assertSameAsTomcat("/no-such-thing?x=1");

        assertThat(detailed.status()).isEqualTo(404);
        assertThat(detailed.body()).contains("\"path\":\"/no-such-thing\"");
    }

    /**
     * Requests {@code path} from Tomcat and Weft under every setting and media type and asserts that Weft answers as
     * Tomcat does; returns Tomcat's JSON answer with messages and exceptions included.
     */
    private Answer assertSameAsTomcat(String path) throws IOException, InterruptedException {
        Answer detailed = null;
        for (Settings settings : Settings.values()) {
            for (String accept : ACCEPTS) {
                Answer tomcat = get(TOMCAT.get(settings), path, accept);
                Answer weft = get(WEFT.get(settings), path, accept);
                assertThat(weft).as("GET %s, Accept: %s, %s", path, accept, settings).isEqualTo(tomcat);
                if (settings == Settings.MESSAGES_AND_EXCEPTIONS && accept.equals("application/json")) {
                    detailed = tomcat;
                }
            }
        }
        return detailed;
    }

    private Answer get(ConfigurableApplicationContext context, String path, String accept)
            throws IOException, InterruptedException {
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Accept", accept).timeout(Duration.ofSeconds(30)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        String body = response.body()
                .replaceFirst("\"timestamp\":\"[^\"]*\",?", "")
                .replaceFirst("<div id='created'>[^<]*</div>", "");
        return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(null), body);
    }

    /** What a client sees of an error response, but for its timestamp. */
    record Answer(int status, String contentType, String body) {
    }

    private static ConfigurableApplicationContext start(Class<?> server, Settings settings) {
        List<String> properties = new ArrayList<>(List.of("server.port=0", "spring.main.banner-mode=off"));
        properties.addAll(List.of(settings.properties));
        return new SpringApplicationBuilder(ErrorsApplication.class, server)
                .web(WebApplicationType.SERVLET)
                .properties(properties.toArray(String[]::new))
                .run();
    }

    /** The application: handlers that fail in each way, and a filter that fails. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import(Failures.class)
    static class ErrorsApplication {

        @Bean
        FilterRegistrationBean<Filter> failingFilter() {
            FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>((request, response, chain) -> {
                throw new ServletException("the filter failed", new IllegalStateException("the filter's cause"));
            });
            registration.addUrlPatterns("/filter-failure");
            return registration;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OnTomcat {

        @Bean
        TomcatServletWebServerFactory tomcatServletWebServerFactory() {
            return new TomcatServletWebServerFactory();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OnWeftFactory {

        @Bean
        WeftServletWebServerFactory weftServletWebServerFactory() {
            return new WeftServletWebServerFactory();
        }
    }

    @RestController
    static class Failures {

        @GetMapping("/runtime")
        String runtime() {
            throw new RuntimeException("boom");
        }

        @GetMapping("/checked")
        String checked() throws StockException {
            throw new StockException("out of stock");
        }

        @GetMapping("/io")
        String io() throws IOException {
            throw new IOException("disk full");
        }

        @GetMapping("/send-error-message")
        void sendErrorMessage(HttpServletResponse response) throws IOException {
            response.sendError(500, "msg");
        }

        @GetMapping("/send-error")
        void sendError(HttpServletResponse response) throws IOException {
            response.sendError(503);
        }

        @GetMapping("/response-status")
        String responseStatus() {
            throw new TakenException("already taken");
        }

        @GetMapping("/response-status-reason")
        String responseStatusReason() {
            throw new RemovedException("gone for good");
        }
    }

    /** A checked exception of the application's. */
    static final class StockException extends Exception {
        StockException(String message) {
            super(message);
        }
    }

    @ResponseStatus(HttpStatus.CONFLICT)
    static final class TakenException extends RuntimeException {
        TakenException(String message) {
            super(message);
        }
    }

    @ResponseStatus(code = HttpStatus.GONE, reason = "the item was removed")
    static final class RemovedException extends RuntimeException {
        RemovedException(String message) {
            super(message);
        }
    }
}
