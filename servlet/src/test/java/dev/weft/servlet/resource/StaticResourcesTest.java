package dev.weft.servlet.resource;

import dev.weft.servlet.ServletContainer;
import dev.weft.servlet.ServletContainerConfig;
import dev.weft.servlet.testing.Curl;
import dev.weft.servlet.testing.Http;
import dev.weft.servlet.testing.ServletServer;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.net.URLStreamHandler;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Static resources, the default servlet and MIME types (§4.6, §12.1). */
class StaticResourcesTest {

    private static Path documentRoot() throws IOException {
        Path root = Files.createTempDirectory("docroot");
        Files.writeString(root.resolve("test.txt"), "test");
        Files.writeString(root.resolve("style.xxcss"), "body{}");
        Files.createDirectories(root.resolve("dir"));
        Files.writeString(root.resolve("dir/index.html"), "<p>welcome</p>");
        Files.createDirectories(root.resolve("WEB-INF"));
        Files.writeString(root.resolve("WEB-INF/secret.txt"), "secret");
        return root;
    }

    private static Path jarWithResources() throws IOException {
        Path jar = Files.createTempFile("static", ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("META-INF/resources/"));
            out.putNextEntry(new JarEntry("META-INF/resources/from-jar.css"));
            out.write("a{}".getBytes(StandardCharsets.US_ASCII));
            out.closeEntry();
        }
        return jar;
    }

    @Test
    void theDefaultServletServesTheDocumentRootWithTypesAndValidators() throws Exception {
        Path root = documentRoot();
        URL jar = jarWithResources().toUri().toURL();
        try (ServletServer s = ServletServer.start(b -> b.documentRoot(root).registerDefaultServlet(true)
                .staticResourceLocation(jar).mimeMapping("xxcss", "text/css"))) {
            HttpResponse<String> r = Http.get(s.uri("/test.txt"));
            assertEquals(200, r.statusCode());
            assertEquals("test", r.body());
            assertEquals("text/plain", r.headers().firstValue("Content-Type").orElseThrow());
            String etag = r.headers().firstValue("ETag").orElseThrow();
            assertTrue(r.headers().firstValue("Last-Modified").isPresent());
            HttpResponse<String> again = Http.send(Http.request(s.uri("/test.txt")).header("If-None-Match", etag)
                    .build());
            assertEquals(304, again.statusCode());
            assertEquals("text/css", Http.get(s.uri("/style.xxcss")).headers().firstValue("Content-Type")
                    .orElseThrow());
            HttpResponse<String> fromJar = Http.get(s.uri("/from-jar.css"));
            assertEquals("a{}", fromJar.body());
            assertEquals("text/css", fromJar.headers().firstValue("Content-Type").orElseThrow());
        }
    }

    /**
     * A jar inside a Spring Boot executable jar comes as a {@code jar:nested:} URL that only its loader can open;
     * the set reads it through the URL's {@link JarURLConnection}, as with any {@code jar:} URL not on a plain file.
     */
    @Test
    void metaInfResourcesOfAJarReachedThroughAJarUrlConnectionAreServed() throws Exception {
        Path root = documentRoot();
        Path inner = jarWithResources();
        URLStreamHandler nested = new URLStreamHandler() {
            @Override
            protected URLConnection openConnection(URL url) throws IOException {
                return new JarURLConnection(url) {
                    @Override
                    public JarFile getJarFile() throws IOException {
                        return new JarFile(inner.toFile());
                    }

                    @Override
                    public void connect() {
                    }
                };
            }
        };
        // The JDK cannot parse a nested: inner URL without Boot's loader; any inner URL that is no file does.
        URL url = new URL(null, "jar:http://localhost/BOOT-INF/lib/static.jar!/", nested);
        try (ServletServer s = ServletServer.start(b -> b.documentRoot(root).registerDefaultServlet(true)
                .staticResourceLocation(url))) {
            HttpResponse<String> fromJar = Http.get(s.uri("/from-jar.css"));
            assertEquals(200, fromJar.statusCode());
            assertEquals("a{}", fromJar.body());
        }
    }

    @Test
    void directoriesRedirectToTheirSlashAndServeTheirWelcomeFile() throws Exception {
        Path root = documentRoot();
        try (ServletServer s = ServletServer.start(b -> b.documentRoot(root).registerDefaultServlet(true))) {
            HttpResponse<String> r = Http.get(s.uri("/dir?x=1"));
            assertEquals(302, r.statusCode());
            assertTrue(r.headers().firstValue("Location").orElseThrow().endsWith("/dir/?x=1"));
            assertEquals("<p>welcome</p>", Http.get(s.uri("/dir/")).body());
        }
    }

    @Test
    void hiddenDirectoriesClassFilesAndTraversalAreNeverServed() throws Exception {
        Path root = documentRoot();
        try (ServletServer s = ServletServer.start(b -> b.documentRoot(root).registerDefaultServlet(true))) {
            assertEquals(404, Http.get(s.uri("/WEB-INF/secret.txt")).statusCode());
            assertEquals(404, Http.get(s.uri("/dev/weft/servlet/ServletContainer.class")).statusCode());
            assertEquals(404, Http.get(s.uri("/missing.txt")).statusCode());
            Curl c = Curl.ok("--path-as-is", "-o", "/dev/null", "-w", "%{http_code}",
                    "http://127.0.0.1:" + s.port() + "/dir/../../etc/passwd");
            assertEquals("400", c.out());
            assertEquals(405, Http.send(Http.request(s.uri("/test.txt"))
                    .POST(java.net.http.HttpRequest.BodyPublishers.noBody()).build()).statusCode());
        }
    }

    @Test
    void anApplicationServletAtSlashTakesOverButTheDefaultServletStaysReachableByName() throws Exception {
        Path root = documentRoot();
        try (ServletServer s = ServletServer.start(b -> b.documentRoot(root).registerDefaultServlet(true)
                .initializer((classes, ctx) -> ctx.addServlet("app", new HttpServlet() {
                    @Override
                    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException,
                            jakarta.servlet.ServletException {
                        if (req.getPathInfo() == null && req.getServletPath().startsWith("/static/")) {
                            req.getServletContext().getNamedDispatcher("default").forward(req, resp);
                            return;
                        }
                        resp.getWriter().print("app " + req.getServletPath());
                    }
                }).addMapping("/")))) {
            assertEquals("app /test.txt", Http.get(s.uri("/test.txt")).body());
            assertNotNull(s.container().servletContext().getServletRegistration("default"));
        }
    }

    @Test
    void resourcesThroughTheServletContext() throws Exception {
        Path root = documentRoot();
        ServletContainer c = ServletContainer.create(ServletContainerConfig.builder().documentRoot(root).build());
        try {
            var ctx = c.servletContext();
            assertNotNull(ctx.getResource("/"));
            assertNotNull(ctx.getResource("/test.txt"));
            assertNull(ctx.getResource("/nope.txt"));
            assertNull(ctx.getResource("/../outside"));
            assertEquals("test", new String(ctx.getResourceAsStream("/test.txt").readAllBytes()));
            assertEquals(Set.of("/dir/index.html"), ctx.getResourcePaths("/dir"));
            assertTrue(ctx.getResourcePaths("/").containsAll(Set.of("/test.txt", "/dir/", "/WEB-INF/")));
            assertEquals(root.toRealPath().resolve("test.txt").toString(), ctx.getRealPath("/test.txt"));
            assertEquals("text/html", ctx.getMimeType("page.HTML"));
            assertNull(ctx.getMimeType("file.unknownext"));
            assertTrue(ctx.getAttribute("jakarta.servlet.context.tempdir") instanceof java.io.File);
        } finally {
            c.destroy();
        }
    }

    @Test
    void withoutADocumentRootTheRootResourceStillExists() throws Exception {
        ServletContainer c = ServletContainer.create(ServletContainerConfig.builder()
                .initializer((classes, ctx) -> {
                    try {
                        assertNotNull(ctx.getResource("/"));
                    } catch (java.net.MalformedURLException e) {
                        throw new AssertionError(e);
                    }
                }).build());
        c.destroy();
    }

    @Test
    void aMimeTableGivenIsExactlyTheTable() {
        Map<String, String> table = Map.of("abc", "text/abc", "txt", "text/plain");
        ServletContainer c = ServletContainer.create(ServletContainerConfig.builder().mimeMappings(table).build());
        try {
            assertEquals(table, c.mimeMappings());
            assertNull(c.servletContext().getMimeType("a.html"));
        } finally {
            c.destroy();
        }
        ServletContainer withCharsets = ServletContainer.create(ServletContainerConfig.builder()
                .localeCharset(Locale.GERMAN, StandardCharsets.UTF_8).build());
        try {
            assertEquals(StandardCharsets.UTF_8, withCharsets.charsetFor(Locale.GERMAN));
            assertEquals(StandardCharsets.UTF_8, withCharsets.charsetFor(Locale.GERMANY));
            assertNull(withCharsets.charsetFor(Locale.ITALIAN));
        } finally {
            withCharsets.destroy();
        }
    }

    @Test
    void headOfAStaticFileHasItsLength() throws Exception {
        Path root = documentRoot();
        try (ServletServer s = ServletServer.start(b -> b.documentRoot(root).registerDefaultServlet(true))) {
            String h = Curl.ok("-I", "http://127.0.0.1:" + s.port() + "/test.txt").out().toLowerCase(Locale.ROOT);
            assertTrue(h.contains("content-length: 4"), h);
        }
    }

}
