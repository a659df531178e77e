package dev.weft.servlet.dispatch;

import dev.weft.servlet.ErrorPage;
import dev.weft.servlet.testing.Curl;
import dev.weft.servlet.testing.Http;
import dev.weft.servlet.testing.PathReport;
import dev.weft.servlet.testing.ServletServer;
import dev.weft.servlet.testing.Servlets;
import jakarta.servlet.ServletException;
import jakarta.servlet.UnavailableException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Request path elements, forward, include and error dispatches, over a real socket under context path /app. */
class DispatchTest {

    private static ServletServer server;

    @BeforeAll
    static void start() throws IOException {
        server = ServletServer.start(b -> b
                .contextPath("/app")
                .errorPage(ErrorPage.forStatus(404, "/errors/not-found"))
                .errorPage(ErrorPage.forException(IllegalArgumentException.class, "/errors/bad-argument"))
                .errorPage(ErrorPage.forException(ArithmeticException.class, "/errors/failing"))
                .initializer((classes, ctx) -> {
                    ctx.addServlet("lawn", new PathReport("lawn")).addMapping("/lawn/*");
                    ctx.addServlet("exact", new PathReport("exact")).addMapping("/exact");
                    ctx.addServlet("jsp", new PathReport("jsp")).addMapping("*.jsp");
                    ctx.addServlet("target", new PathReport("target")).addMapping("/target/*");
                    ctx.addServlet("errors", new PathReport("errors")).addMapping("/errors/*");
                    ctx.addServlet("forward", Servlets.of((req, resp) -> {
                        resp.getWriter().print("lost when forwarding");
                        req.getRequestDispatcher("/target/x?b=2").forward(req, resp);
                        resp.getWriter().print("ignored after the forward");
                    })).addMapping("/forward");
                    ctx.addServlet("forward-twice", Servlets.of((req, resp) ->
                            req.getRequestDispatcher("/forward").forward(req, resp))).addMapping("/forward-twice");
                    ctx.addServlet("named", Servlets.of((req, resp) ->
                            req.getServletContext().getNamedDispatcher("target").forward(req, resp))).addMapping("/named");
                    ctx.addServlet("relative", Servlets.of((req, resp) ->
                            req.getRequestDispatcher("../../target/rel").forward(req, resp))).addMapping("/dir/sub/*");
                    ctx.addServlet("include", Servlets.of((req, resp) -> {
                        resp.setContentType("text/plain");
                        resp.getWriter().println("before");
                        req.getRequestDispatcher("/target/y?c=3").include(req, resp);
                        resp.getWriter().println("after");
                    })).addMapping("/include");
                    ctx.addServlet("include-sets-status", Servlets.of((req, resp) -> {
                        req.getRequestDispatcher("/status").include(req, resp);
                    })).addMapping("/include-status");
                    ctx.addServlet("status", Servlets.of((req, resp) -> {
                        resp.setStatus(418);
                        resp.setHeader("X-Included", "yes");
                        resp.getWriter().print("included body");
                    })).addMapping("/status");
                    ctx.addServlet("missing", Servlets.of((req, resp) -> resp.sendError(404, "no <such> thing")))
                            .addMapping("/missing");
                    ctx.addServlet("bad-argument", Servlets.of((req, resp) -> {
                        throw new IllegalArgumentException("bad");
                    })).addMapping("/throw/argument");
                    ctx.addServlet("wrapped", Servlets.of((req, resp) -> {
                        throw new ServletException("wrapped", new IllegalArgumentException("inner"));
                    })).addMapping("/throw/wrapped");
                    ctx.addServlet("state", Servlets.of((req, resp) -> {
                        throw new IllegalStateException("secret internals");
                    })).addMapping("/throw/state");
                    ctx.addServlet("failing-page", Servlets.of((req, resp) -> {
                        throw new ArithmeticException("page trigger");
                    })).addMapping("/throw/arithmetic");
                    ctx.addServlet("root", new PathReport("root")).addMapping("");
                }));
        server.container().servletContext().getServletRegistration("errors");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, String> report(String path) throws Exception {
        HttpResponse<String> r = Http.get(server.uri(path));
        return PathReport.parse(r.body());
    }

    @Test
    void pathElementsFollowTheMappingUnderTheContextPath() throws Exception {
        Map<String, String> r = report("/app/lawn/index.html?q=1");
        assertEquals("/app", r.get("contextPath"));
        assertEquals("/lawn", r.get("servletPath"));
        assertEquals("/index.html", r.get("pathInfo"));
        assertEquals("/app/lawn/index.html", r.get("requestURI"));
        assertEquals("q=1", r.get("queryString"));
        assertEquals("PATH|/lawn/*|index.html|lawn", r.get("mapping"));
        assertEquals("REQUEST", r.get("dispatcherType"));
        Map<String, String> jsp = report("/app/help/feedback.jsp");
        assertEquals("/help/feedback.jsp", jsp.get("servletPath"));
        assertEquals("null", jsp.get("pathInfo"));
        assertEquals("EXTENSION|*.jsp|help/feedback|jsp", jsp.get("mapping"));
    }

    @Test
    void requestUriStaysEncodedWhilePathsAreDecoded() throws Exception {
        Map<String, String> r = report("/app/lawn/a%20b%E2%82%AC;jsessionid=x");
        assertEquals("/app/lawn/a%20b%E2%82%AC;jsessionid=x", r.get("requestURI"));
        assertEquals("/a b€", r.get("pathInfo"));
    }

    @Test
    void suspiciousPathsAreRejectedWith400() throws Exception {
        for (String path : new String[] {"/app/lawn/..%2F..%2Fetc", "/app/../../x", "/app/lawn/%2e%2e/x",
            "/app/lawn/a%5Cb", "/app/lawn/a%00b", "/app/lawn/%zz", "/app/lawn/..;/x", "/app/lawn/%C3%28"}) {
            Curl c = Curl.ok("--path-as-is", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:" + server.port() + path);
            assertEquals("400", c.out(), path);
        }
    }

    @Test
    void theEmptyPatternMapsTheContextRootWithAndWithoutItsSlash() throws Exception {
        assertEquals(404, Http.get(server.uri("/application/exact")).statusCode());
        for (String path : new String[] {"/app/", "/app"}) {
            Map<String, String> root = report(path);
            assertEquals("", root.get("servletPath"), path);
            assertEquals("/", root.get("pathInfo"), path);
            assertEquals("CONTEXT_ROOT|||root", root.get("mapping"), path);
        }
    }

    @Test
    void withoutAContextRootMappingTheBareContextPathRedirectsToItsSlash() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b.contextPath("/say").initializer((classes, ctx) ->
                ctx.addServlet("hello", new PathReport("hello")).addMapping("/hello")))) {
            HttpResponse<String> r = Http.get(s.uri("/say?x=1"));
            assertEquals(302, r.statusCode());
            assertEquals("/say/?x=1", r.headers().firstValue("Location").orElseThrow());
            assertEquals("hello", PathReport.parse(Http.get(s.uri("/say/hello")).body()).get("servlet"));
            assertEquals(404, Http.get(s.uri("/sayhello")).statusCode());
        }
    }

    @Test
    void forwardShowsTheTargetPathAndTheOriginalInAttributes() throws Exception {
        HttpResponse<String> resp = Http.get(server.uri("/app/forward?a=1"));
        assertFalse(resp.body().contains("lost when forwarding"), resp.body());
        assertFalse(resp.body().contains("ignored after the forward"), resp.body());
        Map<String, String> r = PathReport.parse(resp.body());
        assertEquals("target", r.get("servlet"));
        assertEquals("FORWARD", r.get("dispatcherType"));
        assertEquals("/app/target/x", r.get("requestURI"));
        assertEquals("/target", r.get("servletPath"));
        assertEquals("/x", r.get("pathInfo"));
        assertEquals("b=2", r.get("queryString"));
        assertEquals("/app/forward", r.get("jakarta.servlet.forward.request_uri"));
        assertEquals("/forward", r.get("jakarta.servlet.forward.servlet_path"));
        assertEquals("a=1", r.get("jakarta.servlet.forward.query_string"));
        assertEquals("1", r.get("param.a"));
        assertEquals("2", r.get("param.b"));
    }

    @Test
    void forwardAttributesKeepTheFirstRequestThroughSeveralForwards() throws Exception {
        Map<String, String> r = report("/app/forward-twice");
        assertEquals("target", r.get("servlet"));
        assertEquals("/app/forward-twice", r.get("jakarta.servlet.forward.request_uri"));
        assertEquals("/forward-twice", r.get("jakarta.servlet.forward.servlet_path"));
    }

    @Test
    void namedForwardKeepsThePathAndSetsNoAttributes() throws Exception {
        Map<String, String> r = report("/app/named");
        assertEquals("target", r.get("servlet"));
        assertEquals("/named", r.get("servletPath"));
        assertEquals("null", r.get("jakarta.servlet.forward.request_uri"));
    }

    @Test
    void relativeDispatcherPathsResolveAgainstTheCurrentPath() throws Exception {
        Map<String, String> r = report("/app/dir/sub/page");
        assertEquals("/app/target/rel", r.get("requestURI"));
        assertEquals("/rel", r.get("pathInfo"));
    }

    @Test
    void includeKeepsTheCallersPathAndSetsTheTargetsInAttributes() throws Exception {
        HttpResponse<String> resp = Http.get(server.uri("/app/include?a=1"));
        String body = resp.body();
        assertTrue(body.startsWith("before"), body);
        assertTrue(body.strip().endsWith("after"), body);
        Map<String, String> r = PathReport.parse(body);
        assertEquals("INCLUDE", r.get("dispatcherType"));
        assertEquals("/include", r.get("servletPath"));
        assertEquals("/target", r.get("jakarta.servlet.include.servlet_path"));
        assertEquals("/y", r.get("jakarta.servlet.include.path_info"));
        assertEquals("c=3", r.get("jakarta.servlet.include.query_string"));
        assertEquals("/app/target/y", r.get("jakarta.servlet.include.request_uri"));
        assertEquals("3", r.get("param.c"));
        assertEquals("1", r.get("param.a"));
        assertEquals("text/plain;charset=ISO-8859-1", resp.headers().firstValue("Content-Type").orElseThrow(),
                "the included servlet's content type is ignored");
    }

    @Test
    void anIncludedServletCannotChangeStatusOrHeaders() throws Exception {
        HttpResponse<String> r = Http.get(server.uri("/app/include-status"));
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("X-Included").isEmpty());
        assertEquals("included body", r.body());
    }

    @Test
    void sendErrorGoesToTheStatusErrorPageAsGetWithTheOriginalMethod() throws Exception {
        HttpResponse<String> resp = Http.send(Http.request(server.uri("/app/missing?z=9"))
                .POST(HttpRequest.BodyPublishers.ofString("ignored")).build());
        assertEquals(404, resp.statusCode());
        Map<String, String> r = PathReport.parse(resp.body());
        assertEquals("errors", r.get("servlet"));
        assertEquals("ERROR", r.get("dispatcherType"));
        assertEquals("GET", r.get("method"));
        assertEquals("POST", r.get("jakarta.servlet.error.method"));
        assertEquals("404", r.get("jakarta.servlet.error.status_code"));
        assertEquals("/app/missing", r.get("jakarta.servlet.error.request_uri"));
        assertEquals("z=9", r.get("jakarta.servlet.error.query_string"));
        assertEquals("no <such> thing", r.get("jakarta.servlet.error.message"));
        assertEquals("missing", r.get("jakarta.servlet.error.servlet_name"));
        assertEquals("/app/missing", r.get("jakarta.servlet.forward.request_uri"));
    }

    @Test
    void unmappedPathsUseThe404Page() throws Exception {
        HttpResponse<String> resp = Http.get(server.uri("/app/nothing/here"));
        assertEquals(404, resp.statusCode());
        assertEquals("errors", PathReport.parse(resp.body()).get("servlet"));
    }

    @Test
    void exceptionsGoToThePageOfTheirClosestTypeAndServletExceptionsByRootCause() throws Exception {
        HttpResponse<String> direct = Http.get(server.uri("/app/throw/argument"));
        assertEquals(500, direct.statusCode());
        Map<String, String> r = PathReport.parse(direct.body());
        assertEquals("/bad-argument", r.get("pathInfo"));
        assertEquals("class java.lang.IllegalArgumentException", r.get("jakarta.servlet.error.exception_type"));
        assertEquals("bad", r.get("jakarta.servlet.error.message"));
        HttpResponse<String> wrapped = Http.get(server.uri("/app/throw/wrapped"));
        assertEquals(500, wrapped.statusCode());
        assertEquals("/bad-argument", PathReport.parse(wrapped.body()).get("pathInfo"));
    }

    @Test
    void aServletExceptionOnItsRootCausesPageReportsTheRootCauseWithTheThrownMessage() throws Exception {
        HttpResponse<String> resp = Http.get(server.uri("/app/throw/wrapped"));
        assertEquals(500, resp.statusCode());
        Map<String, String> r = PathReport.parse(resp.body());
        assertEquals("500", r.get("jakarta.servlet.error.status_code"));
        assertEquals("class java.lang.IllegalArgumentException", r.get("jakarta.servlet.error.exception_type"));
        assertEquals("java.lang.IllegalArgumentException: inner", r.get("jakarta.servlet.error.exception"));
        assertEquals("wrapped", r.get("jakarta.servlet.error.message"));
        assertEquals("wrapped", r.get("jakarta.servlet.error.servlet_name"));
    }

    @Test
    void anExceptionOnTheDefaultPageIsReportedAsThrownWithAnEmptyMessage() throws Exception {
        HttpResponse<String> resp = onTheDefaultPage("handler", "/handler?q=1", (req, res) -> {
            RuntimeException cause = new RuntimeException("boom");
            throw new ServletException("Request processing failed: " + cause, cause);
        });
        assertEquals(500, resp.statusCode());
        Map<String, String> r = PathReport.parse(resp.body());
        assertEquals("errors", r.get("servlet"));
        assertEquals("500", r.get("jakarta.servlet.error.status_code"));
        assertEquals("jakarta.servlet.ServletException: Request processing failed: java.lang.RuntimeException: boom",
                r.get("jakarta.servlet.error.exception"));
        assertEquals("class jakarta.servlet.ServletException", r.get("jakarta.servlet.error.exception_type"));
        assertEquals("", r.get("jakarta.servlet.error.message"), "an exception is no sendError message");
        assertEquals("/handler", r.get("jakarta.servlet.error.request_uri"));
        assertEquals("q=1", r.get("jakarta.servlet.error.query_string"));
        assertEquals("handler", r.get("jakarta.servlet.error.servlet_name"));
        assertEquals("GET", r.get("jakarta.servlet.error.method"));
    }

    @Test
    void sendErrorWithoutAMessageReportsAnEmptyMessageAndNoException() throws Exception {
        HttpResponse<String> resp = onTheDefaultPage("busy", "/busy", (req, res) -> res.sendError(503));
        assertEquals(503, resp.statusCode());
        Map<String, String> r = PathReport.parse(resp.body());
        assertEquals("503", r.get("jakarta.servlet.error.status_code"));
        assertEquals("", r.get("jakarta.servlet.error.message"));
        assertEquals("null", r.get("jakarta.servlet.error.exception"));
        assertEquals("null", r.get("jakarta.servlet.error.exception_type"));
        assertEquals("busy", r.get("jakarta.servlet.error.servlet_name"));
    }

    /** GET {@code target} from servlet {@code name} (at {@code /name}) in a context with only a default error page. */
    private static HttpResponse<String> onTheDefaultPage(String name, String target, Servlets.Action action)
            throws Exception {
        try (ServletServer s = ServletServer.start(b -> b
                .errorPage(ErrorPage.global("/errors"))
                .initializer((classes, ctx) -> {
                    ctx.addServlet("errors", new PathReport("errors")).addMapping("/errors");
                    ctx.addServlet(name, Servlets.of(action)).addMapping("/" + name);
                }))) {
            return Http.get(s.uri(target));
        }
    }

    @Test
    void anExceptionWithoutAPageOfItsTypeUsesThePageOfItsStatus() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b
                .errorPage(ErrorPage.forStatus(503, "/unavailable"))
                .errorPage(ErrorPage.forStatus(500, "/failed"))
                .initializer((classes, ctx) -> {
                    ctx.addServlet("unavailable", new PathReport("unavailable")).addMapping("/unavailable");
                    ctx.addServlet("failed", new PathReport("failed")).addMapping("/failed");
                    ctx.addServlet("resting", Servlets.of((req, resp) -> {
                        throw new UnavailableException("resting", 5);
                    })).addMapping("/resting");
                }))) {
            HttpResponse<String> resp = Http.get(s.uri("/resting"));
            assertEquals(503, resp.statusCode());
            Map<String, String> r = PathReport.parse(resp.body());
            assertEquals("unavailable", r.get("servlet"));
            assertEquals("503", r.get("jakarta.servlet.error.status_code"));
            assertEquals("class jakarta.servlet.UnavailableException", r.get("jakarta.servlet.error.exception_type"));
        }
    }

    @Test
    void anExceptionWithoutAPageGetsAShort500WithoutTheStackTrace() throws Exception {
        HttpResponse<String> r = Http.get(server.uri("/app/throw/state"));
        assertEquals(500, r.statusCode());
        assertTrue(r.body().contains("500 Internal Server Error"), r.body());
        assertFalse(r.body().contains("secret internals"), r.body());
        assertFalse(r.body().contains("at dev.weft"), r.body());
        assertEquals("text/html;charset=utf-8", r.headers().firstValue("Content-Type").orElseThrow());
    }

    @Test
    void sendErrorMessageIsEscapedInTheContainersErrorPage() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b.initializer((classes, ctx) -> ctx.addServlet("m",
                Servlets.of((req, resp) -> resp.sendError(409, "<script>x</script>"))).addMapping("/m")))) {
            HttpResponse<String> r = Http.get(s.uri("/m"));
            assertEquals(409, r.statusCode());
            assertTrue(r.body().contains("&lt;script&gt;x&lt;/script&gt;"), r.body());
            assertFalse(r.body().contains("<script>"), r.body());
        }
    }

    @Test
    void aFailingErrorPageFallsBackOnTheContainersPageWithoutLooping() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b
                .errorPage(ErrorPage.global("/broken"))
                .initializer((classes, ctx) -> {
                    ctx.addServlet("broken", Servlets.of((req, resp) -> {
                        throw new IllegalStateException("the error page fails too");
                    })).addMapping("/broken");
                    ctx.addServlet("boom", Servlets.of((req, resp) -> {
                        throw new IllegalStateException("boom");
                    })).addMapping("/boom");
                }))) {
            HttpResponse<String> r = Http.get(s.uri("/boom"));
            assertEquals(500, r.statusCode());
            assertTrue(r.body().contains("500 Internal Server Error"), r.body());
        }
    }

    @Test
    void stackTracesAreShownOnlyWhenAskedFor() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b.showStackTraces(true).initializer((classes, ctx) ->
                ctx.addServlet("boom", Servlets.of((req, resp) -> {
                    throw new IllegalStateException("visible");
                })).addMapping("/boom")))) {
            HttpResponse<String> r = Http.get(s.uri("/boom"));
            assertTrue(r.body().contains("java.lang.IllegalStateException: visible"), r.body());
        }
    }

    @Test
    void errorPageDispatchKeepsTheBodyOfAPutRequest() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b
                .errorPage(ErrorPage.forStatus(500, "/hello"))
                .initializer((classes, ctx) -> {
                    ctx.addServlet("hello", Servlets.of((req, resp) -> {
                        if (req.getMethod().equals("GET")) {
                            resp.getWriter().print("Hello World");
                        } else {
                            resp.sendError(405);
                        }
                    })).addMapping("/hello");
                    ctx.addServlet("bang", Servlets.of((req, resp) -> {
                        throw new IllegalStateException("bang");
                    })).addMapping("/bang");
                }))) {
            HttpResponse<String> r = Http.send(Http.request(s.uri("/bang"))
                    .PUT(HttpRequest.BodyPublishers.ofString("x")).build());
            assertEquals("Hello World", r.body());
            assertEquals(500, r.statusCode());
        }
    }
}
