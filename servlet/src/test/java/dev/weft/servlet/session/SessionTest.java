package dev.weft.servlet.session;

import dev.weft.httpserver.testing.Await;
import dev.weft.servlet.ServletContainerConfig;
import dev.weft.servlet.SessionConfig;
import dev.weft.servlet.testing.Curl;
import dev.weft.servlet.testing.Http;
import dev.weft.servlet.testing.ServletServer;
import dev.weft.servlet.testing.Tls;
import jakarta.servlet.ServletContext;
import jakarta.servlet.SessionTrackingMode;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionAttributeListener;
import jakarta.servlet.http.HttpSessionBindingEvent;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionIdListener;
import jakarta.servlet.http.HttpSessionListener;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** HTTP sessions (Servlet 6.1 §7): tracking, ids, listeners, expiry, limits and persistence. */
class SessionTest {

    /**
     * /count increments a counter in the session; /change changes the session id; /invalidate ends it;
     * /peek reports without creating one.
     */
    private static void sessionServlets(ServletContext ctx) {
        ctx.addServlet("session", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.setContentType("text/plain");
                switch (req.getServletPath()) {
                    case "/count" -> {
                        HttpSession s = req.getSession();
                        Integer n = (Integer) s.getAttribute("n");
                        s.setAttribute("n", n == null ? 1 : n + 1);
                        resp.getWriter().print(s.getAttribute("n") + " new=" + s.isNew() + " url="
                                + resp.encodeURL("/count"));
                    }
                    case "/change" -> {
                        String old = req.getSession().getId();
                        String now = req.changeSessionId();
                        resp.getWriter().print(old.equals(now) ? "same" : "changed n=" + req.getSession()
                                .getAttribute("n"));
                    }
                    case "/invalidate" -> req.getSession().invalidate();
                    case "/peek" -> {
                        HttpSession s = req.getSession(false);
                        resp.getWriter().print(s == null ? "none" : "n=" + s.getAttribute("n") + " valid="
                                + req.isRequestedSessionIdValid() + " fromUrl=" + req.isRequestedSessionIdFromURL());
                    }
                    case "/short" -> {
                        req.getSession().setMaxInactiveInterval(1);
                        resp.getWriter().print("ok");
                    }
                    default -> resp.sendError(404);
                }
            }
        }).addMapping("/count", "/change", "/invalidate", "/peek", "/short");
    }

    private static String cookieValue(HttpResponse<?> r, String name) {
        for (String c : r.headers().allValues("Set-Cookie")) {
            if (c.startsWith(name + "=")) {
                return c.substring(name.length() + 1, c.indexOf(';') < 0 ? c.length() : c.indexOf(';'));
            }
        }
        return null;
    }

    private static HttpResponse<String> get(ServletServer s, String path, String sessionId) throws Exception {
        var b = Http.request(s.uri(path));
        if (sessionId != null) {
            b.header("Cookie", "JSESSIONID=" + sessionId);
        }
        return Http.send(b.build());
    }

    @Test
    void aSessionTravelsInAnHttpOnlyCookieAndKeepsItsAttributes() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b.initializer((classes, ctx) -> sessionServlets(ctx)))) {
            HttpResponse<String> first = get(s, "/count", null);
            assertTrue(first.body().startsWith("1 new=true"), first.body());
            String cookie = first.headers().firstValue("Set-Cookie").orElseThrow();
            assertTrue(cookie.contains("; Path=/") && cookie.contains("; HttpOnly"), cookie);
            assertFalse(cookie.contains("Secure"), cookie);
            String id = cookieValue(first, "JSESSIONID");
            HttpResponse<String> second = get(s, "/count", id);
            assertEquals("2 new=false url=/count", second.body(), "no URL encoding when the cookie came back");
            assertTrue(second.headers().firstValue("Set-Cookie").isEmpty());
            assertEquals(1, s.container().sessionCount());
        }
    }

    @Test
    void changeSessionIdKeepsTheAttributesSendsTheNewIdAndTellsTheListeners() throws Exception {
        List<String> changes = new CopyOnWriteArrayList<>();
        try (ServletServer s = ServletServer.start(b -> b.initializer((classes, ctx) -> {
            sessionServlets(ctx);
            ctx.addListener((HttpSessionIdListener) (event, oldId) -> changes.add(oldId + "->" + event.getSession().getId()));
        }))) {
            String id = cookieValue(get(s, "/count", null), "JSESSIONID");
            HttpResponse<String> changed = get(s, "/change", id);
            assertEquals("changed n=1", changed.body());
            String newId = cookieValue(changed, "JSESSIONID");
            assertNotEquals(id, newId);
            assertEquals(List.of(id + "->" + newId), changes);
            assertEquals("none", get(s, "/peek", id).body(), "the old id names no session");
            assertTrue(get(s, "/peek", newId).body().startsWith("n=1 valid=true"));
        }
    }

    @Test
    void sessionAndAttributeListenersHearEveryChange() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        try (ServletServer s = ServletServer.start(b -> b.initializer((classes, ctx) -> {
            sessionServlets(ctx);
            ctx.addListener(new HttpSessionListener() {
                @Override
                public void sessionCreated(HttpSessionEvent se) {
                    events.add("created");
                }

                @Override
                public void sessionDestroyed(HttpSessionEvent se) {
                    events.add("destroyed n=" + se.getSession().getAttribute("n"));
                }
            });
            ctx.addListener(new HttpSessionAttributeListener() {
                @Override
                public void attributeAdded(HttpSessionBindingEvent e) {
                    events.add("added " + e.getName() + "=" + e.getValue());
                }

                @Override
                public void attributeReplaced(HttpSessionBindingEvent e) {
                    events.add("replaced " + e.getName() + "=" + e.getValue());
                }

                @Override
                public void attributeRemoved(HttpSessionBindingEvent e) {
                    events.add("removed " + e.getName() + "=" + e.getValue());
                }
            });
        }))) {
            String id = cookieValue(get(s, "/count", null), "JSESSIONID");
            get(s, "/count", id);
            get(s, "/invalidate", id);
            assertEquals(List.of("created", "added n=1", "replaced n=1", "destroyed n=2", "removed n=2"), events);
            assertEquals("none", get(s, "/peek", id).body());
        }
    }

    @Test
    void anExpiredSessionIsSweptAndItsListenersTold() throws Exception {
        List<String> destroyed = new CopyOnWriteArrayList<>();
        try (ServletServer s = ServletServer.start(b -> b
                .session(SessionConfig.builder().sweepInterval(Duration.ofMillis(50)).build())
                .initializer((classes, ctx) -> {
                    sessionServlets(ctx);
                    ctx.addListener(new HttpSessionListener() {
                        @Override
                        public void sessionDestroyed(HttpSessionEvent se) {
                            destroyed.add(se.getSession().getId());
                        }
                    });
                }))) {
            String id = cookieValue(get(s, "/short", null), "JSESSIONID");
            Await.until("the sweeper telling the listener", () -> !destroyed.isEmpty());
            assertEquals(0, s.container().sessionCount());
            assertEquals(List.of(id), destroyed);
            assertEquals("none", get(s, "/peek", id).body());
        }
    }

    @Test
    void pastTheLimitANewSessionIsA503() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b
                .session(SessionConfig.builder().maxSessions(2).build())
                .initializer((classes, ctx) -> sessionServlets(ctx)))) {
            String id = cookieValue(get(s, "/count", null), "JSESSIONID");
            assertEquals(200, get(s, "/count", null).statusCode());
            assertEquals(503, get(s, "/count", null).statusCode());
            assertTrue(get(s, "/count", id).body().startsWith("2 "), "existing sessions still work");
        }
    }

    @Test
    void withoutACookieTheIdTravelsInTheUrl() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b.initializer((classes, ctx) -> sessionServlets(ctx)))) {
            HttpResponse<String> first = get(s, "/count", null);
            String id = cookieValue(first, "JSESSIONID");
            assertTrue(first.body().endsWith("url=/count;jsessionid=" + id), first.body());
            assertEquals("n=1 valid=true fromUrl=true", Http.get(s.uri("/peek;jsessionid=" + id)).body());
        }
    }

    @Test
    void urlTrackingCanBeTurnedOff() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b
                .session(SessionConfig.builder().trackingModes(Set.of(SessionTrackingMode.COOKIE)).build())
                .initializer((classes, ctx) -> sessionServlets(ctx)))) {
            HttpResponse<String> first = get(s, "/count", null);
            String id = cookieValue(first, "JSESSIONID");
            assertTrue(first.body().endsWith("url=/count"), first.body());
            assertEquals("none", Http.get(s.uri("/peek;jsessionid=" + id)).body());
            assertEquals(Set.of(SessionTrackingMode.COOKIE),
                    s.container().servletContext().getEffectiveSessionTrackingModes());
        }
    }

    @Test
    void theSessionCookieConfigurationShapesTheCookie() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b
                .contextPath("/ctx")
                .session(SessionConfig.builder().cookieName("THESESSION").cookieAttribute("SameSite", "Lax")
                        .cookieAttribute("Partitioned", "").cookieAttribute("Domain", "example.com").build())
                .cookieSameSite(c -> "Strict")
                .initializer((classes, ctx) -> sessionServlets(ctx)))) {
            HttpResponse<String> r = Http.get(s.uri("/ctx/count"));
            String cookie = r.headers().firstValue("Set-Cookie").orElseThrow();
            assertTrue(cookie.startsWith("THESESSION="), cookie);
            for (String part : new String[] {"; SameSite=Lax", "; Partitioned", "; Domain=example.com", "; Path=/ctx",
                "; HttpOnly"}) {
                assertTrue(cookie.contains(part), cookie + " lacks " + part);
            }
            assertFalse(cookie.contains("Strict"), "the application cookie chooser leaves the session cookie alone");
            assertEquals("", s.container().servletContext().getSessionCookieConfig().getAttribute("Partitioned"));
        }
    }

    @Test
    void overTlsTheSessionCookieIsSecure() throws Exception {
        try (ServletServer s = ServletServer.startTls(b -> b.initializer((classes, ctx) -> sessionServlets(ctx)))) {
            Curl c = Curl.ok("--cacert", Tls.shared().serverPem.toString(), "-D", "-", "-o", "/dev/null",
                    s.localhostUrl("/count"));
            assertTrue(c.out().contains("; Secure"), c.out());
        }
    }

    @Test
    void sessionsPersistAcrossDestroyAndANewContainerWithTheStoreDirectory() throws Exception {
        Path store = Files.createTempDirectory("sessions");
        Consumer<ServletContainerConfig.Builder> config = b -> b
                .session(SessionConfig.builder().storeDir(store).build())
                .initializer((classes, ctx) -> sessionServlets(ctx));
        String id;
        try (ServletServer s = ServletServer.start(config)) {
            id = cookieValue(get(s, "/count", null), "JSESSIONID");
            get(s, "/count", id);
        }
        try (var files = Files.list(store)) {
            assertEquals(1, files.count(), "destroy saved the sessions");
        }
        try (ServletServer s = ServletServer.start(config)) {
            assertEquals("n=2 valid=true fromUrl=false", get(s, "/peek", id).body());
        }
    }

    @Test
    void withoutAStoreDirectorySessionsEndWithTheContainer() throws Exception {
        Consumer<ServletContainerConfig.Builder> config = b -> b.initializer((classes, ctx) -> sessionServlets(ctx));
        String id;
        try (ServletServer s = ServletServer.start(config)) {
            id = cookieValue(get(s, "/count", null), "JSESSIONID");
        }
        try (ServletServer s = ServletServer.start(config)) {
            assertEquals("none", get(s, "/peek", id).body());
        }
    }

    @Test
    void theAccessorReachesTheSessionOutsideARequest() throws Exception {
        AtomicReference<HttpSession.Accessor> accessor = new AtomicReference<>();
        try (ServletServer s = ServletServer.start(b -> b.initializer((classes, ctx) -> {
            sessionServlets(ctx);
            ctx.addServlet("accessor", new HttpServlet() {
                @Override
                protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                    accessor.set(req.getSession().getAccessor());
                }
            }).addMapping("/accessor");
        }))) {
            String id = cookieValue(get(s, "/accessor", null), "JSESSIONID");
            accessor.get().access(session -> session.setAttribute("n", 41));
            assertEquals("42 new=false url=/count", get(s, "/count", id).body());
        }
    }
}
