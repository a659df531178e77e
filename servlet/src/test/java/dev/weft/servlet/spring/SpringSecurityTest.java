package dev.weft.servlet.spring;

import dev.weft.servlet.testing.Curl;
import dev.weft.servlet.testing.ServletServer;
import jakarta.servlet.DispatcherType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;
import org.springframework.web.filter.DelegatingFilterProxy;
import org.springframework.web.servlet.DispatcherServlet;

import java.io.IOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Spring Security's filter chain ({@link DelegatingFilterProxy}) on the container: form login, CSRF, fixation. */
class SpringSecurityTest {

    private static ServletServer server;

    @BeforeAll
    static void start() throws IOException {
        server = ServletServer.start(b -> b.initializer((classes, ctx) -> {
            AnnotationConfigWebApplicationContext wac = new AnnotationConfigWebApplicationContext();
            wac.register(SecurityApplication.class);
            wac.setServletContext(ctx);
            wac.refresh();
            var security = ctx.addFilter("springSecurityFilterChain",
                    new DelegatingFilterProxy("springSecurityFilterChain", wac));
            security.setAsyncSupported(true);
            security.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC,
                    DispatcherType.ERROR), false, "/*");
            var dispatcher = ctx.addServlet("dispatcherServlet", new DispatcherServlet(wac));
            dispatcher.addMapping("/");
            dispatcher.setAsyncSupported(true);
            dispatcher.setLoadOnStartup(1);
        }));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String sessionId(CookieManager cookies) {
        for (HttpCookie c : cookies.getCookieStore().getCookies()) {
            if (c.getName().equals("JSESSIONID")) {
                return c.getValue();
            }
        }
        return null;
    }

    @Test
    void formLoginWithCsrfChangesTheSessionIdAndReachesTheProtectedPage() throws Exception {
        CookieManager cookies = new CookieManager();
        HttpClient browser = HttpClient.newBuilder().cookieHandler(cookies).followRedirects(HttpClient.Redirect.NEVER)
                .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> denied = browser.send(HttpRequest.newBuilder(server.uri("/private"))
                        .header("Accept", "text/html").build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(302, denied.statusCode());
        assertTrue(denied.headers().firstValue("Location").orElseThrow().endsWith("/login"));

        HttpResponse<String> form = browser.send(HttpRequest.newBuilder(server.uri("/login")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, form.statusCode());
        Matcher m = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"").matcher(form.body());
        assertTrue(m.find(), form.body());
        String csrf = m.group(1);
        String before = sessionId(cookies);

        HttpResponse<String> withoutToken = browser.send(HttpRequest.newBuilder(server.uri("/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("username=user&password=password")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(403, withoutToken.statusCode());

        String body = "username=user&password=password&_csrf=" + URLEncoder.encode(csrf, StandardCharsets.UTF_8);
        HttpResponse<String> login = browser.send(HttpRequest.newBuilder(server.uri("/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(302, login.statusCode());
        assertTrue(login.headers().firstValue("Location").orElseThrow().contains("/private"));
        String after = sessionId(cookies);
        assertNotEquals(before, after, "session fixation protection changed the session id");

        HttpResponse<String> page = browser.send(HttpRequest.newBuilder(server.uri("/private")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode());
        assertEquals("hello user session=" + after, page.body());
    }

    @Test
    void httpBasicAndPublicPages() throws Exception {
        String base = "http://127.0.0.1:" + server.port();
        assertEquals("public", Curl.ok(base + "/public").out());
        assertEquals("401", Curl.ok("-o", "/dev/null", "-w", "%{http_code}", "-H", "Accept: application/json",
                base + "/private").out());
        assertTrue(Curl.ok("-u", "user:password", base + "/private").out().startsWith("hello user"));
        assertEquals("401", Curl.ok("-o", "/dev/null", "-w", "%{http_code}", "-u", "user:wrong",
                base + "/private").out());
    }
}
