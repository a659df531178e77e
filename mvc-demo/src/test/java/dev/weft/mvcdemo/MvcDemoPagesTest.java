package dev.weft.mvcdemo;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo's pages, session counter, upload form, form login and Actuator, as a browser would use them (cookies,
 * CSRF tokens, redirects), through Spring's {@code RestClient}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MvcDemoPagesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    private DemoClient client;

    @BeforeEach
    void connect() {
        client = new DemoClient(port);
    }

    @AfterEach
    void disconnect() {
        client.close();
    }

    @Test
    void theHomePageIsRenderedByThymeleafWithItsStylesheet() {
        ResponseEntity<String> home = client.get("/");

        assertThat(home.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(home.getHeaders().getContentType().isCompatibleWith(MediaType.TEXT_HTML)).isTrue();
        assertThat(home.getBody()).contains("<title>Home · Spring MVC on Weft</title>",
                "<code id=\"server-info\">Weft", "<code id=\"protocol\">HTTP/1.1</code>",
                "<strong id=\"counter\">0</strong>", "href=\"/css/style.css\"");
        ResponseEntity<String> style = client.get("/css/style.css");
        assertThat(style.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(style.getHeaders().getContentType().isCompatibleWith(MediaType.valueOf("text/css"))).isTrue();
    }

    @Test
    void theCounterCountsPerSessionAndResets() {
        String page = client.get("/").getBody();

        for (int i = 1; i <= 3; i++) {
            ResponseEntity<String> added = client.submit("/counter", form("action", "add"), page);
            assertThat(added.getStatusCode()).isEqualTo(HttpStatus.FOUND);
            assertThat(added.getHeaders().getLocation()).hasPath("/");
            page = client.get("/").getBody();
            assertThat(page).contains("<strong id=\"counter\">" + i + "</strong>");
        }
        assertThat(JSON.readTree(client.get("/api/info").getBody()).get("counter").asInt()).isEqualTo(3);
        try (DemoClient other = new DemoClient(port)) {
            assertThat(other.get("/").getBody()).as("another session").contains("<strong id=\"counter\">0</strong>");
        }

        client.submit("/counter", form("action", "reset"), page);
        assertThat(client.get("/").getBody()).contains("<strong id=\"counter\">0</strong>");
    }

    @Test
    void theCounterRefusesAPostWithoutTheCsrfToken() {
        client.get("/");

        ResponseEntity<String> forged = client.rest().post().uri("/counter")
                .contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .body(form("action", "add"))
                .retrieve().toEntity(String.class);

        assertThat(forged.getStatusCode()).isEqualTo(HttpStatus.FORBIDDEN);
        assertThat(client.get("/").getBody()).contains("<strong id=\"counter\">0</strong>");
    }

    @Test
    void anUploadedFileIsShownWithItsSizeAndSha256() throws Exception {
        byte[] file = new byte[300_000];
        new Random(11).nextBytes(file);
        String page = client.get("/upload").getBody();

        ResponseEntity<String> uploaded = client.submit("/upload", form("file", named(file, "random.bin")), page);

        assertThat(uploaded.getStatusCode()).isEqualTo(HttpStatus.FOUND);
        assertThat(uploaded.getHeaders().getLocation()).hasPath("/upload");
        String result = client.get("/upload").getBody();
        assertThat(result).contains("<dd id=\"uploaded-name\">random.bin</dd>",
                "<dd id=\"uploaded-size\">300000</dd>",
                "<dd id=\"uploaded-sha256\">" + sha256(file) + "</dd>");
        assertThat(client.get("/upload").getBody()).as("a flash attribute shows once").doesNotContain("uploaded-name");
    }

    @Test
    void aFileOverTheLimitIsRefusedWith413() {
        String page = client.get("/upload").getBody();

        ResponseEntity<String> refused = client.submit("/upload",
                form("file", named(new byte[1024 * 1024 + 1], "big.bin")), page);

        assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.CONTENT_TOO_LARGE);
        ResponseEntity<String> next = client.get("/upload");
        assertThat(next.getStatusCode()).as("the session still works").isEqualTo(HttpStatus.OK);
        assertThat(next.getBody()).doesNotContain("uploaded-name");
    }

    @Test
    void theAccountPageAsksForALoginThenShowsTheUserUnderANewSessionId() {
        ResponseEntity<String> anonymous = client.get("/account");
        assertThat(anonymous.getStatusCode()).isEqualTo(HttpStatus.FOUND);
        assertThat(anonymous.getHeaders().getLocation()).hasPath("/login");

        ResponseEntity<String> loginPage = client.get("/login");
        String before = client.sessionId();
        assertThat(before).isNotNull();
        ResponseEntity<String> login = client.login("demo", "demo");

        assertThat(login.getStatusCode()).isEqualTo(HttpStatus.FOUND);
        assertThat(login.getHeaders().getLocation()).hasPath("/account");
        assertThat(client.sessionId()).as("a new session id after login").isNotNull().isNotEqualTo(before);
        ResponseEntity<String> account = client.get("/account");
        assertThat(account.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(account.getBody()).contains("<strong id=\"user\">demo</strong>");
        assertThat(loginPage.getBody()).contains("name=\"username\"", "name=\"password\"");
    }

    @Test
    void aWrongPasswordLeadsBackToTheLoginPage() {
        ResponseEntity<String> login = client.login("demo", "wrong");

        assertThat(login.getStatusCode()).isEqualTo(HttpStatus.FOUND);
        assertThat(login.getHeaders().getLocation().toString()).endsWith("/login?error");
        assertThat(client.get("/account").getStatusCode()).isEqualTo(HttpStatus.FOUND);
    }

    @Test
    void signingOutEndsTheLogin() {
        client.login("demo", "demo");
        String account = client.get("/account").getBody();

        ResponseEntity<String> logout = client.submit("/logout", new LinkedMultiValueMap<>(), account);

        assertThat(logout.getStatusCode()).isEqualTo(HttpStatus.FOUND);
        assertThat(logout.getHeaders().getLocation().toString()).endsWith("/login?logout");
        assertThat(client.get("/account").getStatusCode()).isEqualTo(HttpStatus.FOUND);
    }

    @Test
    void healthIsPublicAndUp() {
        ResponseEntity<String> health = client.get("/actuator/health");

        assertThat(health.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(JSON.readTree(health.getBody()).get("status").asString()).isEqualTo("UP");
    }

    @Test
    void metricsNeedALoginAndCountTheRequestsOfEachRoute() throws Exception {
        assertThat(client.get("/actuator/metrics").getStatusCode()).isEqualTo(HttpStatus.FOUND);
        client.get("/api/info");
        client.login("demo", "demo");

        ResponseEntity<String> names = client.get("/actuator/metrics");
        assertThat(names.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(JSON.readTree(names.getBody()).get("names").toString())
                .contains("\"http.server.requests\"", "\"weft.requests\"", "\"weft.connections.active\"");
        // Spring records the observation as the request's filter chain ends, which may be after the client has
        // read the response: poll until it shows.
        JsonNode requests = awaitMetric("/actuator/metrics/http.server.requests?tag=uri:/api/info");
        assertThat(requests.get("measurements").get(0).get("value").asDouble()).isGreaterThanOrEqualTo(1);
    }

    private JsonNode awaitMetric(String path) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            ResponseEntity<String> metric = client.get(path);
            if (metric.getStatusCode() == HttpStatus.OK) {
                return JSON.readTree(metric.getBody());
            }
            assertThat(System.nanoTime()).as(path + " answered " + metric.getStatusCode()).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private static MultiValueMap<String, Object> form(String name, Object value) {
        MultiValueMap<String, Object> form = new LinkedMultiValueMap<>();
        form.add(name, value);
        return form;
    }

    private static ByteArrayResource named(byte[] content, String name) {
        return new ByteArrayResource(content) {
            @Override
            public String getFilename() {
                return name;
            }
        };
    }

    private static String sha256(byte[] content) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    }
}
