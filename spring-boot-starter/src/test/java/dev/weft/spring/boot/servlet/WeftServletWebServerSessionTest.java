package dev.weft.spring.boot.servlet;

import jakarta.servlet.SessionCookieConfig;
import jakarta.servlet.SessionTrackingMode;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.web.server.Cookie.SameSite;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.servlet.CookieSameSiteSupplier;
import org.springframework.boot.web.server.servlet.Session;
import org.springframework.boot.web.servlet.ServletRegistrationBean;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Boot's servlet factory contract on Weft: session timeout, tracking modes, the session cookie,
 * persistence across a destroy, {@code Partitioned} and {@code SameSite} cookies and {@link CookieSameSiteSupplier}s.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftServletWebServerSessionTest {

    private final ServletServers servers = new ServletServers();

    @TempDir
    Path dir;

    @AfterEach
    void destroyServers() {
        servers.close();
    }

    @Test
    void sessionsTimeOutAfterThirtyMinutesByDefault() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        assertThat(factory.getSettings().getSession().getTimeout()).isEqualTo(Duration.ofMinutes(30));
        WebServer server = servers.start(factory, sessions());

        assertThat(servers.get(server, "/session?timeout").body()).isEqualTo("1800");
    }

    @Test
    void sessionTimeoutsAreKeptInSeconds() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.getSettings().getSession().setTimeout(Duration.ofSeconds(10));
        WebServer server = servers.start(factory, sessions());

        assertThat(servers.get(server, "/session?timeout").body()).isEqualTo("10");
    }

    @Test
    void aNullSessionTimeoutMeansSessionsNeverExpire() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.getSettings().getSession().setTimeout(null);
        WebServer server = servers.start(factory, sessions());

        assertThat(Integer.parseInt(servers.get(server, "/session?timeout").body())).isLessThanOrEqualTo(0);
    }

    @Test
    void trackingModesAreTheConfiguredOnes() {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.getSettings().getSession().setTrackingModes(
                EnumSet.of(Session.SessionTrackingMode.COOKIE, Session.SessionTrackingMode.URL));
        AtomicReference<Set<SessionTrackingMode>> modes = new AtomicReference<>();

        servers.create(factory, context -> modes.set(context.getEffectiveSessionTrackingModes()));

        assertThat(modes.get()).containsExactlyInAnyOrder(SessionTrackingMode.COOKIE, SessionTrackingMode.URL);
    }

    @Test
    void theSessionCookieIsConfiguredAsSet() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        org.springframework.boot.web.server.Cookie cookie = factory.getSettings().getSession().getCookie();
        cookie.setName("testname");
        cookie.setDomain("testdomain");
        cookie.setPath("/testpath");
        cookie.setHttpOnly(true);
        cookie.setSecure(true);
        cookie.setMaxAge(Duration.ofMinutes(1));
        AtomicReference<SessionCookieConfig> config = new AtomicReference<>();
        WebServer server = servers.start(factory, sessions(), context -> config.set(context.getSessionCookieConfig()));

        assertThat(config.get().getName()).isEqualTo("testname");
        assertThat(config.get().getDomain()).isEqualTo("testdomain");
        assertThat(config.get().getPath()).isEqualTo("/testpath");
        assertThat(config.get().isHttpOnly()).isTrue();
        assertThat(config.get().isSecure()).isTrue();
        assertThat(config.get().getMaxAge()).isEqualTo(60);
        assertThat(config.get().getAttribute("Partitioned")).isNull();
        String setCookie = sessionCookie(servers.get(server, "/session"), "testname");
        assertThat(setCookie).contains("Domain=testdomain", "Path=/testpath", "HttpOnly", "Secure", "Max-Age=60");
    }

    @Test
    void aPartitionedSessionCookieSaysSoAndApplicationCookiesStayPlain() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.getSettings().getSession().getCookie().setPartitioned(true);
        AtomicReference<SessionCookieConfig> config = new AtomicReference<>();
        WebServer server = servers.start(factory, sessions(), context -> config.set(context.getSessionCookieConfig()));

        HttpResponse<String> response = servers.get(server, "/session?cookie=test");

        assertThat(config.get().getAttribute("Partitioned")).isEmpty();
        assertThat(sessionCookie(response, "JSESSIONID")).contains("; Partitioned");
        assertThat(cookie(response, "test")).isEqualTo("test=test");
    }

    @Test
    void anUnpartitionedSessionCookieSaysNothing() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.getSettings().getSession().getCookie().setPartitioned(false);
        WebServer server = servers.start(factory, sessions());

        HttpResponse<String> response = servers.get(server, "/session?cookie=test");

        assertThat(sessionCookie(response, "JSESSIONID")).doesNotContain("Partitioned");
        assertThat(cookie(response, "test")).isEqualTo("test=test");
    }

    @ParameterizedTest
    @EnumSource(value = SameSite.class, names = { "NONE", "LAX", "STRICT" })
    void theSessionCookieCarriesItsSameSiteAndApplicationCookiesNone(SameSite sameSite) throws Exception {
        for (String name : List.of("JSESSIONID", "THESESSION")) {
            WeftServletWebServerFactory factory = ServletServers.factory();
            factory.getSettings().getSession().getCookie().setName(name);
            factory.getSettings().getSession().getCookie().setSameSite(sameSite);
            WebServer server = servers.start(factory, sessions());

            HttpResponse<String> response = servers.get(server, "/session?cookie=test");

            assertThat(sessionCookie(response, name)).contains("SameSite=" + sameSite.attributeValue());
            assertThat(cookie(response, "test")).isEqualTo("test=test");
        }
    }

    @Test
    void sameSiteSuppliersChooseForApplicationCookiesByName() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.addCookieSameSiteSuppliers(CookieSameSiteSupplier.ofLax().whenHasName("relaxed"),
                CookieSameSiteSupplier.ofNone().whenHasName("empty"),
                CookieSameSiteSupplier.ofStrict().whenHasName("controlled"));
        WebServer server = servers.start(factory, sessions());

        HttpResponse<String> response = servers.get(server, "/session?cookie=relaxed,empty,controlled,test");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(cookie(response, "relaxed")).isEqualTo("relaxed=test; SameSite=Lax");
        assertThat(cookie(response, "empty")).isEqualTo("empty=test; SameSite=None");
        assertThat(cookie(response, "controlled")).isEqualTo("controlled=test; SameSite=Strict");
        assertThat(cookie(response, "test")).isEqualTo("test=test");
        assertThat(sessionCookie(response, "JSESSIONID")).doesNotContain("SameSite");
    }

    @Test
    void sameSiteSuppliersNeverOverrideTheSessionCookie() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.getSettings().getSession().getCookie().setSameSite(SameSite.LAX);
        factory.addCookieSameSiteSuppliers(CookieSameSiteSupplier.ofStrict());
        WebServer server = servers.start(factory, sessions());

        HttpResponse<String> response = servers.get(server, "/session?cookie=test");

        assertThat(sessionCookie(response, "JSESSIONID")).contains("SameSite=Lax").doesNotContain("Strict");
        assertThat(cookie(response, "test")).isEqualTo("test=test; SameSite=Strict");
    }

    @Test
    void anOmittedSessionSameSiteStaysOmittedDespiteSuppliers() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.getSettings().getSession().getCookie().setSameSite(SameSite.OMITTED);
        factory.addCookieSameSiteSuppliers(CookieSameSiteSupplier.ofStrict());
        WebServer server = servers.start(factory, sessions());

        HttpResponse<String> response = servers.get(server, "/session?cookie=test");

        assertThat(sessionCookie(response, "JSESSIONID")).doesNotContain("SameSite");
        assertThat(cookie(response, "test")).isEqualTo("test=test; SameSite=Strict");
    }

    @Test
    void persistentSessionsSurviveADestroyAndANewServer() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.getSettings().getSession().setPersistent(true);
        factory.getSettings().getSession().setStoreDir(dir.toFile());
        WebServer first = servers.start(factory, sessions());
        HttpResponse<String> created = servers.get(first, "/session?count");
        String cookie = sessionCookie(created, "JSESSIONID").split(";", 2)[0];
        assertThat(created.body()).isEqualTo("1");
        assertThat(count(first, cookie)).isEqualTo("2");

        first.destroy();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).as("saved sessions in the store directory").isNotEmpty();
        }
        WebServer second = servers.start(factory, sessions());

        assertThat(count(second, cookie)).isEqualTo("3");
    }

    @Test
    void withoutPersistenceSessionsDoNotSurviveADestroy() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        WebServer first = servers.start(factory, sessions());
        HttpResponse<String> created = servers.get(first, "/session?count");
        String cookie = sessionCookie(created, "JSESSIONID").split(";", 2)[0];

        first.destroy();
        WebServer second = servers.start(factory, sessions());

        assertThat(count(second, cookie)).isEqualTo("1");
    }

    private String count(WebServer server, String cookie) throws IOException, InterruptedException {
        return servers.send(server, HttpRequest.newBuilder(ServletServers.uri(server, "/session?count"))
                .header("Cookie", cookie)).body();
    }

    private static String sessionCookie(HttpResponse<String> response, String name) {
        return response.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith(name + "="))
                .findFirst().orElseThrow(() -> new AssertionError("no " + name + " cookie in " + response.headers()));
    }

    private static String cookie(HttpResponse<String> response, String name) {
        return sessionCookie(response, name);
    }

    /**
     * {@code /session}: creates a session; {@code ?timeout} answers its timeout in seconds, {@code ?count}
     * counts the requests of the session, {@code ?cookie=a,b} adds cookies {@code a=test}, {@code b=test}.
     */
    static ServletRegistrationBean<HttpServlet> sessions() {
        return new ServletRegistrationBean<>(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                HttpSession session = req.getSession(true);
                String cookies = req.getParameter("cookie");
                if (cookies != null) {
                    for (String name : cookies.split(",")) {
                        resp.addCookie(new Cookie(name, "test"));
                    }
                }
                if (req.getParameter("timeout") != null) {
                    resp.getWriter().print(session.getMaxInactiveInterval());
                } else if (req.getParameter("count") != null) {
                    Integer count = (Integer) session.getAttribute("count");
                    count = count == null ? 1 : count + 1;
                    session.setAttribute("count", count);
                    resp.getWriter().print(count);
                }
            }
        }, "/session");
    }
}
