package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.RawHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.weft.httpserver.testing.TestServer.respond;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Requests go to the longest context whose path matches whole path segments. */
@Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ContextMatchingTest {

    private HttpServer server;

    @BeforeEach
    void start() throws IOException {
        server = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    /** Answers 200 with "name contextPath". */
    private static HttpHandler named(String name) {
        return ex -> respond(ex, 200, name + " " + ex.getHttpContext().getPath());
    }

    private RawHttpClient.Response get(String target) throws IOException {
        try (RawHttpClient c = RawHttpClient.connect(server.getAddress().getPort())) {
            c.send(RawHttpClient.get(target));
            return c.readResponse();
        }
    }

    private String bodyOf(String target) throws IOException {
        RawHttpClient.Response r = get(target);
        assertEquals(200, r.status(), () -> target + " -> " + r);
        return r.bodyText();
    }

    @Test
    void longestContextMatchingWholeSegmentsWins() throws IOException {
        server.createContext("/foo", named("foo"));
        server.createContext("/foo/bar", named("bar"));

        assertEquals("foo /foo", bodyOf("/foo"));
        assertEquals("foo /foo", bodyOf("/foo/"));
        assertEquals("foo /foo", bodyOf("/foo/baz"));
        assertEquals("foo /foo", bodyOf("/foo/barbaz"));
        assertEquals("foo /foo", bodyOf("/foo?next=/foo/bar"));
        assertEquals("bar /foo/bar", bodyOf("/foo/bar"));
        assertEquals("bar /foo/bar", bodyOf("/foo/bar/"));
        assertEquals("bar /foo/bar", bodyOf("/foo/bar/x/y"));
    }

    @Test
    void pathThatOnlySharesAStringPrefixGets404() throws IOException {
        server.createContext("/foo", named("foo"));

        assertEquals(404, get("/foobar").status());
        assertEquals(404, get("/fo").status());
        assertEquals(404, get("/").status());
    }

    @Test
    void rootContextCatchesEverythingNotMatchedElsewhere() throws IOException {
        server.createContext("/", named("root"));
        server.createContext("/foo", named("foo"));

        assertEquals("root /", bodyOf("/"));
        assertEquals("root /", bodyOf("/x/y"));
        assertEquals("root /", bodyOf("/foobar"));
        assertEquals("foo /foo", bodyOf("/foo/z"));
    }

    @Test
    void removedContextAnswers404() throws IOException {
        server.createContext("/a", named("a"));
        HttpContext b = server.createContext("/b", named("b"));
        assertEquals("a /a", bodyOf("/a"));
        assertEquals("b /b", bodyOf("/b"));

        server.removeContext("/a");
        server.removeContext(b);

        assertEquals(404, get("/a").status());
        assertEquals(404, get("/b/c").status());
    }

    @Test
    void contextAttributesAreVisibleToTheHandler() throws IOException {
        HttpContext ctx = server.createContext("/attr",
                ex -> respond(ex, 200, String.valueOf(ex.getHttpContext().getAttributes().get("greeting"))));
        ctx.getAttributes().put("greeting", "hello from the context");

        assertEquals("hello from the context", bodyOf("/attr"));
    }

    @Test
    void exchangeAttributesAreNotSharedWithContextOrLaterExchanges() throws IOException {
        HttpContext ctx = server.createContext("/ex", ex -> {
            String before = String.valueOf(ex.getAttribute("k"));
            ex.setAttribute("k", "set by handler");
            String own = String.valueOf(ex.getAttribute("k"));
            String inContext = String.valueOf(ex.getHttpContext().getAttributes().get("k"));
            respond(ex, 200, before + "|" + own + "|" + inContext);
        });

        assertEquals("null|set by handler|null", bodyOf("/ex"));
        assertEquals("null|set by handler|null", bodyOf("/ex"));
        assertEquals(null, ctx.getAttributes().get("k"));
    }

    @Test
    void exchangeReportsTheContextItWasRoutedTo() throws Exception {
        CompletableFuture<HttpContext> seen = new CompletableFuture<>();
        HttpContext ctx = server.createContext("/where", ex -> {
            seen.complete(ex.getHttpContext());
            respond(ex, 200, "ok");
        });

        assertEquals("ok", bodyOf("/where/deeper"));
        HttpContext got = seen.get(5, TimeUnit.SECONDS);
        assertSame(ctx, got);
        assertEquals("/where", got.getPath());
        assertSame(server, got.getServer());
    }
}
