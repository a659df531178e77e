package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Context lookup by whole path segments (the JDK 27 {@code pathPrefix} default), longest match first. */
class ContextRegistryTest {

    private static final HttpHandler HANDLER = exchange -> { };

    private final ContextRegistry registry = new ContextRegistry();

    private ContextRegistry with(String... paths) {
        for (String p : paths) {
            registry.create(p, HANDLER, null);
        }
        return registry;
    }

    /** The path of the context found for {@code requestPath}, or null. */
    private String match(String requestPath) {
        WeftHttpContext c = registry.find(requestPath);
        return c == null ? null : c.getPath();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/foo", "/foo/", "/foo/bar", "/foo/bar/baz", "/foo//x"})
    void contextMatchesItsPathAndEverythingBelowIt(String requestPath) {
        with("/foo");

        assertEquals("/foo", match(requestPath));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/foobar", "/fo", "/", "/bar/foo", "/FOO"})
    void contextDoesNotMatchOtherSegments(String requestPath) {
        with("/foo");

        assertNull(match(requestPath));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/a", "/a/b/c", "/foobar", "/x/"})
    void rootContextMatchesEveryPath(String requestPath) {
        with("/");

        assertEquals("/", match(requestPath));
    }

    @ParameterizedTest
    @CsvSource({
            "/foo/bar/baz, /foo/bar",
            "/foo/bar,     /foo/bar",
            "/foo/barx,    /foo",
            "/foo/x,       /foo",
            "/foo,         /foo",
            "/foobar,      /",
            "/other,       /",
    })
    void longestMatchingContextWins(String requestPath, String expected) {
        with("/", "/foo", "/foo/bar");

        assertEquals(expected, match(requestPath));
    }

    @Test
    void longestMatchWinsWhateverTheRegistrationOrder() {
        with("/foo/bar", "/foo", "/");

        assertEquals("/foo/bar", match("/foo/bar/baz"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/foo/", "/foo/bar", "/foo/bar/"})
    void trailingSlashContextMatchesItsPathAndBelow(String requestPath) {
        with("/foo/");

        assertEquals("/foo/", match(requestPath));
    }

    @Test
    void trailingSlashContextDoesNotMatchThePathWithoutTheSlash() {
        with("/foo/");

        assertNull(match("/foo"));
    }

    @Test
    void trailingSlashContextBeatsTheBareOneBelowIt() {
        with("/foo", "/foo/");

        assertEquals("/foo/", match("/foo/bar"));
    }

    @Test
    void bareContextServesItsExactPathNextToATrailingSlashOne() {
        with("/foo", "/foo/");

        assertEquals("/foo", match("/foo"));
    }

    @Test
    void deeperTrailingSlashContextWins() {
        with("/a", "/a/b/");

        assertEquals("/a/b/", match("/a/b/c"));
    }

    @Test
    void noContextsMatchNothing() {
        assertNull(match("/"));
    }

    @Test
    void createdContextCarriesPathAndHandler() {
        HttpContext c = registry.create("/p", HANDLER, null);

        assertEquals("/p", c.getPath());
        assertSame(HANDLER, c.getHandler());
    }

    @Test
    void createdContextIsTheOneFound() {
        WeftHttpContext c = registry.create("/p", HANDLER, null);

        assertSame(c, registry.find("/p/q"));
    }

    @Test
    void duplicatePathIsRejected() {
        with("/foo");

        assertThrows(IllegalArgumentException.class, () -> registry.create("/foo", HANDLER, null));
    }

    @Test
    void pathsDifferingOnlyByTrailingSlashAreDistinct() {
        with("/foo", "/foo/");

        assertEquals("/foo/", match("/foo/"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "foo", "foo/", "*", "http://x/"})
    void pathNotStartingWithSlashIsRejected(String path) {
        assertThrows(IllegalArgumentException.class, () -> registry.create(path, HANDLER, null));
    }

    @Test
    void nullPathIsRejected() {
        assertThrows(NullPointerException.class, () -> registry.create(null, HANDLER, null));
    }

    @Test
    void removedPathNoLongerMatches() {
        with("/", "/foo");

        registry.remove("/foo");

        assertEquals("/", match("/foo/bar"));
    }

    @Test
    void removedContextNoLongerMatches() {
        WeftHttpContext c = registry.create("/foo", HANDLER, null);

        registry.remove(c);

        assertNull(match("/foo"));
    }

    @Test
    void removedPathCanBeCreatedAgain() {
        with("/foo");
        registry.remove("/foo");

        WeftHttpContext again = registry.create("/foo", HANDLER, null);

        assertSame(again, registry.find("/foo"));
    }

    @Test
    void removingAnUnknownPathIsRejected() {
        with("/foo");

        assertThrows(IllegalArgumentException.class, () -> registry.remove("/bar"));
    }

    @Test
    void removingAContextOfAnotherRegistryIsRejected() {
        WeftHttpContext foreign = new ContextRegistry().create("/foo", HANDLER, null);
        with("/foo");

        assertThrows(IllegalArgumentException.class, () -> registry.remove(foreign));
    }

    @Test
    void removingAContextOfAnotherTypeIsRejected() {
        with("/foo");

        assertThrows(IllegalArgumentException.class, () -> registry.remove(new ForeignContext("/foo")));
    }

    @Test
    void removingANullPathIsRejected() {
        assertThrows(NullPointerException.class, () -> registry.remove((String) null));
    }

    @Test
    void removingANullContextIsRejected() {
        assertThrows(NullPointerException.class, () -> registry.remove((HttpContext) null));
    }

    /** An {@link HttpContext} that is not Weft's. */
    private static final class ForeignContext extends HttpContext {
        private final String path;

        ForeignContext(String path) {
            this.path = path;
        }

        @Override
        public HttpHandler getHandler() {
            return HANDLER;
        }

        @Override
        public void setHandler(HttpHandler handler) {
        }

        @Override
        public String getPath() {
            return path;
        }

        @Override
        public HttpServer getServer() {
            return null;
        }

        @Override
        public Map<String, Object> getAttributes() {
            return Map.of();
        }

        @Override
        public java.util.List<com.sun.net.httpserver.Filter> getFilters() {
            return java.util.List.of();
        }

        @Override
        public com.sun.net.httpserver.Authenticator setAuthenticator(com.sun.net.httpserver.Authenticator auth) {
            return null;
        }

        @Override
        public com.sun.net.httpserver.Authenticator getAuthenticator() {
            return null;
        }
    }
}
