package dev.weft.websocket.jakarta.container;

import jakarta.websocket.server.ServerEndpointConfig;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The examples of Jakarta WebSocket §3.1.1 (URI mapping). */
class SpecPathMatchingTest {

    private static EndpointRoutes routes(String... paths) throws Exception {
        EndpointRoutes routes = new EndpointRoutes();
        for (String p : paths) {
            routes.add(new UriTemplate(p), new EndpointMount(
                    ServerEndpointConfig.Builder.create(Object.class, p).build(), null, null));
        }
        return routes;
    }

    private static String matched(EndpointRoutes routes, String path) {
        EndpointRoutes.Match m = routes.find(path);
        return m == null ? null : m.mount().config().getPath() + " " + m.pathParameters();
    }

    @Test
    void exactSegmentsArePreferredFromLeftToRight() throws Exception {
        EndpointRoutes three = routes("/a/{var}/c", "/a/b/c", "/a/{var1}/{var2}");
        assertEquals("/a/b/c {}", matched(three, "/a/b/c"));
        assertEquals("/a/{var}/c " + Map.of("var", "d"), matched(three, "/a/d/c"));
        assertEquals("/a/{var1}/{var2} " + Map.of("var1", "x", "var2", "y"), matched(three, "/a/x/y"));

        EndpointRoutes two = routes("/{var1}/d", "/b/{var2}");
        assertEquals("/b/{var2} " + Map.of("var2", "d"), matched(two, "/b/d"));
    }

    @Test
    void aVariableMatchesOneNonEmptySegmentAndATrailingSlashIsASegment() throws Exception {
        EndpointRoutes routes = routes("/a/{var}", "/x/y/");
        assertEquals("/a/{var} " + Map.of("var", "apple"), matched(routes, "/a/apple"));
        assertNull(matched(routes, "/a"));
        assertNull(matched(routes, "/a/b/"));
        assertNull(matched(routes, "/a/b/c"));
        assertEquals("/x/y/ {}", matched(routes, "/x/y/"));
        assertNull(matched(routes, "/x/y"));
    }
}
