package dev.weft.servlet.spring;

import dev.weft.servlet.ErrorPage;
import dev.weft.servlet.testing.Curl;
import dev.weft.servlet.testing.Http;
import dev.weft.servlet.testing.ServletServer;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.MultipartConfigElement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;
import org.springframework.web.filter.CharacterEncodingFilter;
import org.springframework.web.servlet.DispatcherServlet;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spring MVC's {@link DispatcherServlet} on the container, configured as Boot configures it (mapped to
 * {@code /}, async supported, a multipart config, a character-encoding filter for every dispatcher type, the
 * global error page {@code /error}), driven by the JDK client and curl.
 */
class SpringMvcTest {

    private static ServletServer server;

    @BeforeAll
    static void start() throws IOException {
        server = ServletServer.start(b -> b
                .errorPage(ErrorPage.global("/error"))
                .initializer((classes, ctx) -> {
                    AnnotationConfigWebApplicationContext wac = new AnnotationConfigWebApplicationContext();
                    wac.register(MvcApplication.class);
                    var dispatcher = ctx.addServlet("dispatcherServlet", new DispatcherServlet(wac));
                    dispatcher.addMapping("/");
                    dispatcher.setLoadOnStartup(1);
                    dispatcher.setAsyncSupported(true);
                    dispatcher.setMultipartConfig(new MultipartConfigElement("", 10_000, 50_000, 0));
                    CharacterEncodingFilter encoding = new CharacterEncodingFilter("UTF-8", true);
                    var filter = ctx.addFilter("characterEncodingFilter", encoding);
                    filter.setAsyncSupported(true);
                    filter.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC,
                            DispatcherType.ERROR), false, "/*");
                    var failing = ctx.addFilter("failing", (Filter) (req, res, chain) -> {
                        throw new IllegalStateException("filter internals");
                    });
                    failing.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/filter-fails");
                }));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static HttpResponse<String> get(String path, String accept) throws Exception {
        return Http.send(Http.request(server.uri(path)).header("Accept", accept).build());
    }

    @Test
    void jsonControllersAnswerWithPathVariablesAndRequestBodies() throws Exception {
        HttpResponse<String> r = get("/api/greeting?name=Weft", "application/json");
        assertEquals(200, r.statusCode());
        assertEquals("{\"hello\":\"Weft\"}", r.body());
        assertEquals("application/json;charset=UTF-8", r.headers().firstValue("Content-Type").orElseThrow(),
                "the encoding filter forces UTF-8 on responses");
        assertEquals("{\"id\":\"a b\"}", get("/api/items/a%20b", "application/json").body());
        HttpResponse<String> echo = Http.send(Http.request(server.uri("/api/echo"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"x\":\"ü\"}")).build());
        assertEquals("{\"x\":\"ü\",\"echoed\":true}", echo.body());
    }

    @Test
    void aThrownExceptionIsJsonForApiClientsWithoutInternals() throws Exception {
        HttpResponse<String> r = get("/api/boom", "application/json");
        assertEquals(500, r.statusCode());
        assertTrue(r.body().contains("\"status\":500"), r.body());
        assertTrue(r.body().contains("\"error\":\"Internal Server Error\""), r.body());
        assertTrue(r.body().contains("\"path\":\"/api/boom\""), r.body());
        assertFalse(r.body().contains("boom internals"), r.body());
        assertFalse(r.body().contains("trace"), r.body());
    }

    @Test
    void browsersGetTheWhitelabelPage() throws Exception {
        HttpResponse<String> r = get("/api/boom", "text/html");
        assertEquals(500, r.statusCode());
        assertTrue(r.body().contains("Whitelabel Error Page"), r.body());
        assertTrue(r.body().contains("status=500"), r.body());
        HttpResponse<String> missing = get("/api/nothing-here", "text/html");
        assertEquals(404, missing.statusCode());
        assertTrue(missing.body().contains("status=404"), missing.body());
    }

    @Test
    void unknownPathsAre404JsonThroughTheErrorPage() throws Exception {
        HttpResponse<String> r = get("/api/nothing-here", "application/json");
        assertEquals(404, r.statusCode());
        assertTrue(r.body().contains("\"status\":404"), r.body());
        assertTrue(r.body().contains("\"path\":\"/api/nothing-here\""), r.body());
    }

    @Test
    void anExceptionInAFilterGetsTheErrorPage() throws Exception {
        HttpResponse<String> r = get("/filter-fails", "application/json");
        assertEquals(500, r.statusCode());
        assertTrue(r.body().contains("\"status\":500"), r.body());
        assertFalse(r.body().contains("filter internals"), r.body());
    }

    @Test
    void deferredResultCallableAndMonoComplete() throws Exception {
        assertEquals("deferred done", get("/api/deferred", "text/plain").body());
        assertEquals("callable done", get("/api/callable", "text/plain").body());
        assertEquals("{\"mono\":\"yes\"}", get("/api/mono", "application/json").body());
    }

    @Test
    void aDeferredResultTimeoutIsA503() throws Exception {
        HttpResponse<String> r = get("/api/deferred-timeout", "application/json");
        assertEquals(503, r.statusCode());
        assertTrue(r.body().contains("\"status\":503"), r.body());
    }

    @Test
    void serverSentEventsReachCurlAsTheyAreSent() throws Exception {
        MvcApplication.sseRelease = new CountDownLatch(1);
        Process curl = new ProcessBuilder("curl", "-sS", "-N", "--max-time", "60",
                "http://127.0.0.1:" + server.port() + "/api/sse").start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(curl.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                lines.add(line);
                if (line.equals("data:one")) {
                    MvcApplication.sseRelease.countDown(); // the first event arrived before the second was sent
                }
            }
        }
        assertEquals(0, curl.waitFor());
        assertEquals(List.of("event:tick", "data:one", "", "event:tick", "data:two", ""), lines);
    }

    @Test
    void emittersStreamingBodiesAndFluxStream() throws Exception {
        assertEquals("part0;part1;part2;", get("/api/emitter", "text/plain").body());
        HttpResponse<String> stream = get("/api/stream", "*/*");
        assertEquals(170_000, stream.body().length());
        assertTrue(stream.headers().firstValue("Content-Length").isEmpty(), "larger than the buffer: streamed");
        Curl flux = Curl.ok("-N", "http://127.0.0.1:" + server.port() + "/api/flux");
        assertEquals("data:a\n\ndata:b\n\ndata:c\n\n", flux.out());
    }

    @Test
    void aForwardViewGoesThroughTheRequestDispatcher() throws Exception {
        assertEquals("{\"hello\":\"forwarded\"}", get("/api/forward", "application/json").body());
    }

    @Test
    void multipartUploadsAndTheirLimits() throws Exception {
        Path file = Files.createTempFile("upload", ".txt");
        Files.writeString(file, "Q".repeat(5000));
        Curl ok = Curl.ok("-F", "file=@" + file, "-F", "title=Weft", "http://127.0.0.1:" + server.port()
                + "/api/upload");
        assertTrue(ok.out().contains("\"size\":5000"), ok.out());
        assertTrue(ok.out().contains("\"title\":\"Weft\""), ok.out());
        assertTrue(ok.out().contains("\"first\":\"Q\""), ok.out());
        Files.writeString(file, "Q".repeat(20_000));
        Curl tooBig = Curl.ok("-H", "Accept: application/json", "-w", "\n%{http_code}", "-F", "file=@" + file, "-F",
                "title=x", "http://127.0.0.1:" + server.port() + "/api/upload");
        // MVC answers MaxUploadSizeExceededException with sendError(413); its error dispatch meets the same
        // exception again (as on Tomcat), so the container's own 413 page is the answer
        assertTrue(tooBig.out().endsWith("\n413"), tooBig.out());
        assertTrue(tooBig.out().contains("413 Content Too Large"), tooBig.out());
        assertFalse(tooBig.out().contains("Exception"), tooBig.out());
    }
}
