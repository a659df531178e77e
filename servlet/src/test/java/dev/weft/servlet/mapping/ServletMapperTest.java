package dev.weft.servlet.mapping;

import jakarta.servlet.http.MappingMatch;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The mapping rules (Servlet 6.1 §12) and the {@code HttpServletMapping} values of its Javadoc table. */
class ServletMapperTest {

    private static ServletMapper<String> mapper(String... patternsAndTargets) {
        ServletMapper<String> m = new ServletMapper<>(t -> t);
        for (int i = 0; i < patternsAndTargets.length; i += 2) {
            m.add(UrlPattern.parse(patternsAndTargets[i]), patternsAndTargets[i + 1]);
        }
        return m;
    }

    @Test
    void specificationExampleSetMapsAsTable12_2() {
        ServletMapper<String> m = mapper("/foo/bar/*", "servlet1", "/baz/*", "servlet2", "/catalog", "servlet3",
                "*.bop", "servlet4", "/", "default");
        assertEquals("servlet1", m.map("/foo/bar/index.html").target());
        assertEquals("servlet1", m.map("/foo/bar/index.bop").target());
        assertEquals("servlet2", m.map("/baz").target());
        assertEquals("servlet2", m.map("/baz/index.html").target());
        assertEquals("servlet3", m.map("/catalog").target());
        assertEquals("default", m.map("/catalog/index.html").target());
        assertEquals("servlet4", m.map("/catalog/racecar.bop").target());
        assertEquals("servlet4", m.map("/index.bop").target());
    }

    @Test
    void pathElementsFollowTable3_2() {
        ServletMapper<String> m = mapper("/lawn/*", "lawn", "/garden/*", "garden", "*.jsp", "jsp");
        PathMatch<String> lawn = m.map("/lawn/index.html");
        assertEquals("/lawn", lawn.servletPath());
        assertEquals("/index.html", lawn.pathInfo());
        PathMatch<String> garden = m.map("/garden/implements/");
        assertEquals("/garden", garden.servletPath());
        assertEquals("/implements/", garden.pathInfo());
        PathMatch<String> jsp = m.map("/help/feedback.jsp");
        assertEquals("/help/feedback.jsp", jsp.servletPath());
        assertNull(jsp.pathInfo());
    }

    @Test
    void mappingValuesFollowTheHttpServletMappingJavadoc() {
        ServletMapper<String> m = mapper("/MyServlet", "MyServlet", "", "MyServlet", "*.extension", "MyServlet",
                "/path/*", "MyServlet", "/", "default");
        check(m.map("/"), "", "", MappingMatch.CONTEXT_ROOT, "", "/");
        check(m.map("/index.html"), "", "/", MappingMatch.DEFAULT, "/index.html", null);
        check(m.map("/MyServlet"), "MyServlet", "/MyServlet", MappingMatch.EXACT, "/MyServlet", null);
        check(m.map("/MyServlet/foo"), "", "/", MappingMatch.DEFAULT, "/MyServlet/foo", null);
        check(m.map("/foo.extension"), "foo", "*.extension", MappingMatch.EXTENSION, "/foo.extension", null);
        check(m.map("/bar/foo.extension"), "bar/foo", "*.extension", MappingMatch.EXTENSION, "/bar/foo.extension",
                null);
        check(m.map("/path/foo"), "foo", "/path/*", MappingMatch.PATH, "/path", "/foo");
        check(m.map("/path/foo/bar"), "foo/bar", "/path/*", MappingMatch.PATH, "/path", "/foo/bar");
    }

    @Test
    void slashStarTakesEverythingWithAnEmptyServletPath() {
        PathMatch<String> p = mapper("/*", "all").map("/a/b");
        assertEquals("", p.servletPath());
        assertEquals("/a/b", p.pathInfo());
        assertEquals(MappingMatch.PATH, p.mapping().getMappingMatch());
    }

    @Test
    void prefixPatternMatchesItsOwnPathWithoutPathInfo() {
        PathMatch<String> p = mapper("/api/*", "api").map("/api");
        assertEquals("/api", p.servletPath());
        assertNull(p.pathInfo());
    }

    @Test
    void longestPrefixWinsAndMatchingIsCaseSensitive() {
        ServletMapper<String> m = mapper("/a/*", "short", "/a/b/*", "long", "/", "default");
        assertEquals("long", m.map("/a/b/c").target());
        assertEquals("short", m.map("/a/bc").target());
        assertEquals("default", m.map("/A/b/c").target());
    }

    @Test
    void noDefaultServletMeansNoMatch() {
        assertNull(mapper("/x", "x").map("/y"));
    }

    @Test
    void invalidPatternsAndDuplicatesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> UrlPattern.parse("foo"));
        assertThrows(IllegalArgumentException.class, () -> UrlPattern.parse("*.a/b"));
        assertThrows(IllegalArgumentException.class, () -> UrlPattern.parse("/a/*/b/*"));
        assertThrows(IllegalArgumentException.class, () -> mapper("/a", "x", "/a", "y"));
    }

    @Test
    void filterPatternsMatchAsServletPatternsAndSlashMatchesAll() {
        assertEquals(true, UrlPattern.parse("/*").matchesFilterPath("/anything"));
        assertEquals(true, UrlPattern.parse("/api/*").matchesFilterPath("/api"));
        assertEquals(false, UrlPattern.parse("/api/*").matchesFilterPath("/apix"));
        assertEquals(true, UrlPattern.parse("*.do").matchesFilterPath("/a/b.do"));
        assertEquals(false, UrlPattern.parse("*.do").matchesFilterPath("/a.do/b"));
        assertEquals(true, UrlPattern.parse("/").matchesFilterPath("/x"));
        assertEquals(true, UrlPattern.parse("/exact").matchesFilterPath("/exact"));
    }

    private static void check(PathMatch<String> p, String matchValue, String pattern, MappingMatch kind,
                              String servletPath, String pathInfo) {
        assertEquals(matchValue, p.mapping().getMatchValue(), "matchValue");
        assertEquals(pattern, p.mapping().getPattern(), "pattern");
        assertEquals(kind, p.mapping().getMappingMatch(), "mappingMatch");
        assertEquals(servletPath, p.servletPath(), "servletPath");
        assertEquals(pathInfo, p.pathInfo(), "pathInfo");
    }
}
