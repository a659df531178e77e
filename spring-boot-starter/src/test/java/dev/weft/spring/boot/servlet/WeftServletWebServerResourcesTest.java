package dev.weft.spring.boot.servlet;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.web.error.ErrorPage;
import org.springframework.boot.web.server.MimeMappings;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.http.HttpStatus;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Boot's servlet factory contract on Weft: static resources and the default servlet, the MIME table,
 * locale charsets and error pages.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftServletWebServerResourcesTest {

    private final ServletServers servers = new ServletServers();

    @TempDir
    Path dir;

    @AfterEach
    void destroyServers() {
        servers.close();
    }

    @Test
    void theDefaultServletServesTheDocumentRoot() throws Exception {
        Files.writeString(dir.resolve("test.txt"), "test");
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.setDocumentRoot(dir.toFile());
        factory.setRegisterDefaultServlet(true);
        WebServer server = servers.start(factory);

        HttpResponse<String> response = servers.get(server, "/test.txt");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("test");
    }

    @Test
    void withoutRegisterDefaultServletNothingIsServedFromTheDocumentRoot() throws Exception {
        Files.writeString(dir.resolve("test.txt"), "test");
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.setDocumentRoot(dir.toFile());
        WebServer server = servers.start(factory);

        assertThat(servers.get(server, "/test.txt").statusCode()).isEqualTo(404);
    }

    @Test
    void classFilesOfTheClassPathAreNeverServed() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.setRegisterDefaultServlet(true);
        WebServer server = servers.start(factory);

        assertThat(servers.get(server, "/org/springframework/boot/SpringApplication.class").statusCode())
                .isEqualTo(404);
    }

    @Test
    void theRootResourceExistsWithoutADocumentRoot() throws Exception {
        AtomicReference<URL> root = new AtomicReference<>();

        servers.create(ServletServers.factory(), context -> {
            try {
                root.set(context.getResource("/"));
            } catch (MalformedURLException e) {
                throw new IllegalStateException(e);
            }
        });

        assertThat(root.get()).isNotNull();
    }

    @Test
    void theMimeTableIsExactlySpringBootsDefault() {
        WebServer server = servers.create(ServletServers.factory());

        assertThat(mimeTable(server)).isEqualTo(table(MimeMappings.DEFAULT));
    }

    @Test
    void addedMimeMappingsExtendTheDefaultTable() {
        WeftServletWebServerFactory factory = ServletServers.factory();
        MimeMappings extra = new MimeMappings();
        extra.add("foo", "application/foo");
        factory.addMimeMappings(extra);
        WebServer server = servers.create(factory);

        Map<String, String> expected = table(MimeMappings.DEFAULT);
        expected.put("foo", "application/foo");
        assertThat(mimeTable(server)).isEqualTo(expected);
    }

    @Test
    void aConfiguredMimeTypeIsTheContentTypeOfAStaticResource() throws Exception {
        Files.writeString(dir.resolve("test.xxcss"), "test");
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.setDocumentRoot(dir.toFile());
        factory.setRegisterDefaultServlet(true);
        MimeMappings mappings = new MimeMappings();
        mappings.add("xxcss", "text/css");
        factory.setMimeMappings(mappings);
        WebServer server = servers.start(factory);

        HttpResponse<String> response = servers.get(server, "/test.xxcss");

        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/css"));
    }

    @Test
    void localeCharsetMappingsAreExactlyTheConfiguredOnes() {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.setLocaleCharsetMappings(Map.of(Locale.GERMAN, StandardCharsets.UTF_8));
        WeftServletWebServer server = (WeftServletWebServer) servers.create(factory);

        assertThat(server.getContainer().charsetFor(Locale.GERMAN)).isEqualTo(StandardCharsets.UTF_8);
        assertThat(server.getContainer().charsetFor(Locale.ITALIAN)).isNull();
    }

    @Test
    void anExceptionIsAnsweredWithTheErrorPageForItsStatus() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.addErrorPages(new ErrorPage(HttpStatus.INTERNAL_SERVER_ERROR, "/hello"));
        WebServer server = servers.start(factory, ServletServers.hello(), bang());

        HttpResponse<String> response = servers.get(server, "/bang");

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).isEqualTo("Hello World");
    }

    /** Servlet 6.1 §10.9.2: error dispatches are GETs that carry the original method as an attribute. */
    @Test
    void aFailedPutGetsTheErrorPageAsAGetCarryingThePutMethod() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.addErrorPages(new ErrorPage(HttpStatus.INTERNAL_SERVER_ERROR, "/method"));
        ServletRegistrationBean<HttpServlet> method = new ServletRegistrationBean<>(new HttpServlet() {
            @Override
            protected void service(HttpServletRequest req,
                    HttpServletResponse resp) throws IOException {
                resp.getWriter().print(req.getMethod() + " " + req.getAttribute("jakarta.servlet.error.method"));
            }
        }, "/method");
        method.setName("method");
        WebServer server = servers.start(factory, method, bang());

        HttpResponse<String> response = servers.send(server, HttpRequest.newBuilder(ServletServers.uri(server, "/bang"))
                .PUT(HttpRequest.BodyPublishers.ofString("x")));

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).isEqualTo("GET PUT");
    }

    @Test
    void exceptionTypeAndGlobalErrorPagesApply() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.addErrorPages(new ErrorPage(IllegalStateException.class, "/hello"),
                new ErrorPage("/method"));
        ServletRegistrationBean<HttpServlet> missing = new ServletRegistrationBean<>(new HttpServlet() {
            @Override
            protected void service(HttpServletRequest req,
                    HttpServletResponse resp) throws IOException {
                resp.getWriter().print("global " + req.getAttribute("jakarta.servlet.error.status_code"));
            }
        }, "/method");
        missing.setName("global");
        WebServer server = servers.start(factory, ServletServers.hello(), bang(), missing);

        assertThat(servers.get(server, "/bang").body()).isEqualTo("Hello World");
        HttpResponse<String> notFound = servers.get(server, "/nothing-here");
        assertThat(notFound.statusCode()).isEqualTo(404);
        assertThat(notFound.body()).isEqualTo("global 404");
    }

    private static ServletRegistrationBean<HttpServlet> bang() {
        ServletRegistrationBean<HttpServlet> bang = new ServletRegistrationBean<>(new HttpServlet() {
            @Override
            protected void service(HttpServletRequest req,
                    HttpServletResponse resp) {
                throw new IllegalStateException("Bang");
            }
        }, "/bang");
        bang.setName("bang");
        return bang;
    }

    private static Map<String, String> mimeTable(WebServer server) {
        return ((WeftServletWebServer) server).getContainer().mimeMappings();
    }

    private static Map<String, String> table(MimeMappings mappings) {
        Map<String, String> table = new HashMap<>();
        mappings.forEach(m -> table.put(m.getExtension(), m.getMimeType()));
        return table;
    }
}
