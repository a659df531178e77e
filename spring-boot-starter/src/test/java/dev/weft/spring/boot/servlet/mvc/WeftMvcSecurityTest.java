package dev.weft.spring.boot.servlet.mvc;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Security's form login on Weft, cookie by cookie with the JDK {@link HttpClient}: the login page's CSRF
 * token is required, a successful login changes the session id (session fixation protection), and the old id
 * opens nothing.
 */
@OnWeft
class WeftMvcSecurityTest {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @Test
    void aProtectedPageRedirectsToTheLoginPage() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/secure/whoami")), null);

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(response.headers().firstValue("Location")).hasValueSatisfying(
                location -> assertThat(location).endsWith("/login"));
    }

    @Test
    void aLoginWithoutTheCsrfTokenIsRefused() throws Exception {
        String session = loginPage().session;

        HttpResponse<String> response = post("/login", "username=user&password=secret", session);

        assertThat(response.statusCode()).isEqualTo(403);
    }

    @Test
    void aLoginWithTheTokenChangesTheSessionIdAndOpensTheProtectedPage() throws Exception {
        LoginPage page = loginPage();

        HttpResponse<String> login = post("/login", "username=user&password=secret&_csrf="
                + URLEncoder.encode(page.token, StandardCharsets.UTF_8), page.session);

        assertThat(login.statusCode()).isEqualTo(302);
        String authenticated = sessionCookie(login);
        assertThat(authenticated).as("a new session id after login").isNotNull().isNotEqualTo(page.session);
        HttpResponse<String> whoami = send(HttpRequest.newBuilder(uri("/secure/whoami")), authenticated);
        assertThat(whoami.statusCode()).isEqualTo(200);
        assertThat(whoami.body()).isEqualTo("user");
        HttpResponse<String> fixated = send(HttpRequest.newBuilder(uri("/secure/whoami")), page.session);
        assertThat(fixated.statusCode()).as("the session id from before the login").isEqualTo(302);
    }

    @Test
    void aWrongPasswordIsSentBackToTheLoginPage() throws Exception {
        LoginPage page = loginPage();

        HttpResponse<String> login = post("/login", "username=user&password=wrong&_csrf="
                + URLEncoder.encode(page.token, StandardCharsets.UTF_8), page.session);

        assertThat(login.statusCode()).isEqualTo(302);
        assertThat(login.headers().firstValue("Location")).hasValueSatisfying(
                location -> assertThat(location).endsWith("/login?error"));
    }

    private record LoginPage(String session, String token) {
    }

    private LoginPage loginPage() throws IOException, InterruptedException {
        HttpResponse<String> page = send(HttpRequest.newBuilder(uri("/login")), null);
        assertThat(page.statusCode()).isEqualTo(200);
        Matcher token = CSRF.matcher(page.body());
        assertThat(token.find()).as("a CSRF token in the login page").isTrue();
        String session = sessionCookie(page);
        assertThat(session).as("a session for the token").isNotNull();
        return new LoginPage(session, token.group(1));
    }

    private HttpResponse<String> post(String path, String form, String session)
            throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)), session);
    }

    private HttpResponse<String> send(HttpRequest.Builder request, String session)
            throws IOException, InterruptedException {
        if (session != null) {
            request.header("Cookie", "JSESSIONID=" + session);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String sessionCookie(HttpResponse<String> response) {
        return response.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("JSESSIONID="))
                .map(c -> c.substring("JSESSIONID=".length()).split(";", 2)[0]).findFirst().orElse(null);
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
