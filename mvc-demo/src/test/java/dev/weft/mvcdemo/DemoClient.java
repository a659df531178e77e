package dev.weft.mvcdemo;

import org.springframework.core.io.Resource;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.client.RestClient;

import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One browser-like visitor of the demo: Spring's {@link RestClient} over the JDK {@code HttpClient} with its own
 * cookie jar (so its own session), redirects not followed, every status returned rather than thrown.
 */
final class DemoClient implements AutoCloseable {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

    private final CookieManager cookies = new CookieManager();
    private final HttpClient http;
    private final RestClient rest;

    DemoClient(int port) {
        http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .cookieHandler(cookies)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(http);
        requests.setReadTimeout(Duration.ofSeconds(10));
        rest = RestClient.builder()
                .baseUrl("http://127.0.0.1:" + port)
                .requestFactory(requests)
                .defaultStatusHandler(status -> true, (request, response) -> { })
                .build();
    }

    RestClient rest() {
        return rest;
    }

    ResponseEntity<String> get(String path) {
        return rest.get().uri(path).retrieve().toEntity(String.class);
    }

    /** Posts a form (URL-encoded, or multipart when a part is a resource) with the CSRF token of {@code page}. */
    ResponseEntity<String> submit(String path, MultiValueMap<String, Object> form, String page) {
        MultiValueMap<String, Object> fields = new LinkedMultiValueMap<>(form);
        fields.add("_csrf", csrfToken(page));
        boolean multipart = fields.values().stream().flatMap(List::stream)
                .anyMatch(Resource.class::isInstance);
        return rest.post().uri(path)
                .contentType(multipart ? MediaType.MULTIPART_FORM_DATA : MediaType.APPLICATION_FORM_URLENCODED)
                .body(fields)
                .retrieve().toEntity(String.class);
    }

    /** Signs in through Spring Security's login page; returns the answer to the login form. */
    ResponseEntity<String> login(String user, String password) {
        ResponseEntity<String> page = get("/login");
        assertThat(page.getStatusCode()).isEqualTo(HttpStatus.OK);
        MultiValueMap<String, Object> form = new LinkedMultiValueMap<>();
        form.add("username", user);
        form.add("password", password);
        return submit("/login", form, page.getBody());
    }

    /** The {@code JSESSIONID} this client holds, or null. */
    String sessionId() {
        return cookies.getCookieStore().getCookies().stream()
                .filter(cookie -> cookie.getName().equals("JSESSIONID"))
                .map(HttpCookie::getValue)
                .findFirst().orElse(null);
    }

    /** The CSRF token a page's form carries. */
    static String csrfToken(String page) {
        Matcher token = CSRF.matcher(page);
        assertThat(token.find()).as("a CSRF token in the page").isTrue();
        return token.group(1);
    }

    @Override
    public void close() {
        http.shutdownNow();
        http.close();
    }
}
