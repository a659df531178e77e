package dev.weft.servlet.chain;

import dev.weft.servlet.ErrorPage;
import dev.weft.servlet.testing.Http;
import dev.weft.servlet.testing.ServletServer;
import dev.weft.servlet.testing.Servlets;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Filter chains by URL pattern, servlet name and dispatcher type (Servlet 6.1 §6.2.4, §6.2.5). */
class FilterChainTest {

    /** A filter that writes its name around the rest of the chain: "name(" ... ")". */
    private static Filter marking(String name) {
        return (req, res, chain) -> {
            res.getWriter().print(name + "(");
            chain.doFilter(req, res);
            res.getWriter().print(")");
        };
    }

    private static HttpServlet writing(String text) {
        return Servlets.of((req, resp) -> resp.getWriter().print(text));
    }

    @Test
    void urlPatternFiltersComeFirstThenServletNameFiltersEachInMappingOrder() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b.initializer((classes, ctx) -> {
            ctx.addServlet("target", writing("T")).addMapping("/api/*");
            ctx.addFilter("byName", marking("n")).addMappingForServletNames(null, true, "target");
            ctx.addFilter("all", marking("a")).addMappingForUrlPatterns(null, true, "/*");
            ctx.addFilter("api", marking("p")).addMappingForUrlPatterns(null, true, "/api/*");
            ctx.addFilter("other", marking("o")).addMappingForUrlPatterns(null, true, "/other/*");
            ctx.addFilter("ext", marking("e")).addMappingForUrlPatterns(null, true, "*.json");
            ctx.addFilter("early", marking("E")).addMappingForUrlPatterns(null, false, "/*");
        }))) {
            assertEquals("E(a(p(n(T))))", Http.get(s.uri("/api/x")).body());
            assertEquals("E(a(p(e(n(T)))))", Http.get(s.uri("/api/x.json")).body());
        }
    }

    @Test
    void filtersApplyOnlyToTheirDispatcherTypes() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b
                .errorPage(ErrorPage.forStatus(404, "/error"))
                .initializer((classes, ctx) -> {
                    ctx.addServlet("target", writing("T")).addMapping("/target");
                    ctx.addServlet("error", writing("404 page")).addMapping("/error");
                    Servlets.map(ctx, "/forward", (req, resp) -> req.getRequestDispatcher("/target").forward(req, resp));
                    Servlets.map(ctx, "/include", (req, resp) -> req.getRequestDispatcher("/target").include(req, resp));
                    ctx.addFilter("request", marking("R")).addMappingForUrlPatterns(
                            EnumSet.of(DispatcherType.REQUEST), true, "/*");
                    ctx.addFilter("forward", marking("F")).addMappingForUrlPatterns(
                            EnumSet.of(DispatcherType.FORWARD), true, "/target");
                    ctx.addFilter("include", marking("I")).addMappingForServletNames(
                            EnumSet.of(DispatcherType.INCLUDE), true, "*");
                    ctx.addFilter("error", marking("X")).addMappingForUrlPatterns(
                            EnumSet.of(DispatcherType.ERROR), true, "/*");
                }))) {
            assertEquals("R(T)", Http.get(s.uri("/target")).body());
            assertEquals("F(T)", Http.get(s.uri("/forward")).body(), "the forward resets the buffer R( wrote");
            assertEquals("R(I(T))", Http.get(s.uri("/include")).body());
            assertEquals("X(404 page)", Http.get(s.uri("/nowhere")).body(),
                    "the error dispatch gets the error filters, and the original response's text is gone");
        }
    }

    @Test
    void aFilterCanAnswerWithoutCallingTheChain() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b.initializer((classes, ctx) -> {
            ctx.addServlet("target", writing("T")).addMapping("/*");
            ctx.addFilter("guard", (Filter) (req, res, chain) -> ((HttpServletResponse) res).sendError(403))
                    .addMappingForUrlPatterns(null, true, "/secret/*");
        }))) {
            assertEquals(403, Http.get(s.uri("/secret/x")).statusCode());
            assertEquals("T", Http.get(s.uri("/open")).body());
        }
    }

    @Test
    void registrationsReportTheirMappings() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b.initializer((classes, ctx) -> {
            ctx.addServlet("target", writing("T")).addMapping("/a", "/b/*");
            var f = ctx.addFilter("f", marking("f"));
            f.addMappingForUrlPatterns(null, true, "/x/*");
            f.addMappingForServletNames(null, true, "target");
        }))) {
            ServletContext ctx = s.container().servletContext();
            assertEquals(java.util.List.of("/a", "/b/*"), java.util.List.copyOf(ctx.getServletRegistration("target")
                    .getMappings()));
            assertEquals(java.util.List.of("/x/*"), java.util.List.copyOf(ctx.getFilterRegistration("f")
                    .getUrlPatternMappings()));
            assertEquals(java.util.List.of("target"), java.util.List.copyOf(ctx.getFilterRegistration("f")
                    .getServletNameMappings()));
        }
    }

    @Test
    void aPatternMappedToTwoServletsIsAConflict() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b.initializer((classes, ctx) -> {
            ctx.addServlet("one", writing("1")).addMapping("/same");
            assertEquals(java.util.Set.of("/same"), ctx.addServlet("two", writing("2")).addMapping("/same", "/two"));
        }))) {
            assertEquals("1", Http.get(s.uri("/same")).body());
            assertEquals(404, Http.get(s.uri("/two")).statusCode(), "nothing of a conflicting call is mapped");
        }
    }
}
