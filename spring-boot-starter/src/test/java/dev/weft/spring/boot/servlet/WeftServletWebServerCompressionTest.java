package dev.weft.spring.boot.servlet;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.web.server.Compression;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.util.unit.DataSize;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Spring Boot's servlet factory contract on Weft: response compression ({@code server.compression.*}). */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftServletWebServerCompressionTest {

    private static final String TEXT = "Hello World, ".repeat(770).substring(0, 10_000);

    private final ServletServers servers = new ServletServers();

    @AfterEach
    void destroyServers() {
        servers.close();
    }

    @Test
    void aLargeTextResponseToGetIsGzipped() throws Exception {
        WebServer server = start(enabled());

        HttpResponse<byte[]> response = fetch(server, "/text?size=10000", "GET", null);

        assertThat(response.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(gunzip(response.body())).isEqualTo(TEXT);
    }

    @Test
    void aLargeTextResponseToPostIsGzipped() throws Exception {
        WebServer server = start(enabled());

        HttpResponse<byte[]> response = fetch(server, "/text?size=10000", "POST", null);

        assertThat(response.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(gunzip(response.body())).isEqualTo(TEXT);
    }

    @Test
    void aResponseBelowTheMinimumSizeIsNotCompressed() throws Exception {
        WebServer server = start(enabled());

        HttpResponse<byte[]> response = fetch(server, "/text?size=100", "GET", null);

        assertThat(response.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo(TEXT.substring(0, 100));
    }

    @Test
    void aMinimumSizeOneByteAboveTheBodyLeavesItUncompressed() throws Exception {
        Compression compression = enabled();
        compression.setMinResponseSize(DataSize.ofBytes(3001));
        WebServer server = start(compression);

        assertThat(fetch(server, "/text?size=3000", "GET", null).headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(fetch(server, "/text?size=3001", "GET", null).headers().firstValue("Content-Encoding"))
                .hasValue("gzip");
    }

    @Test
    void aTypeOutsideTheCompressedTypesIsNotCompressed() throws Exception {
        Compression compression = enabled();
        compression.setMimeTypes(new String[] { "text/html", "text/xml", "text/css" });
        WebServer server = start(compression);

        assertThat(fetch(server, "/text?size=10000", "GET", null).headers().firstValue("Content-Encoding"))
                .isEmpty();
    }

    @Test
    void anExcludedUserAgentGetsNoCompression() throws Exception {
        Compression compression = enabled();
        compression.setExcludedUserAgents(new String[] { "testUserAgent" });
        WebServer server = start(compression);

        HttpResponse<byte[]> response = fetch(server, "/text?size=10000", "GET", "testUserAgent");

        assertThat(response.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo(TEXT);
    }

    @Test
    void aStreamedResponseOfUnknownLengthIsCompressedWhateverItsSize() throws Exception {
        WebServer server = start(enabled());

        HttpResponse<byte[]> response = fetch(server, "/text?size=11&stream", "GET", null);

        assertThat(response.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(gunzip(response.body())).isEqualTo(TEXT.substring(0, 11));
    }

    @Test
    void anUnparsableContentTypeIsServedUncompressed() throws Exception {
        WebServer server = start(enabled());

        HttpResponse<byte[]> response = fetch(server, "/text?size=10000&type=test~plain", "GET", null);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Encoding")).isEmpty();
    }

    @Test
    void withoutCompressionNothingIsCompressed() throws Exception {
        WebServer server = servers.start(ServletServers.factory(), text());

        assertThat(fetch(server, "/text?size=10000", "GET", null).headers().firstValue("Content-Encoding"))
                .isEmpty();
    }

    private static Compression enabled() {
        Compression compression = new Compression();
        compression.setEnabled(true);
        return compression;
    }

    private WebServer start(Compression compression) {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.setCompression(compression);
        return servers.start(factory, text());
    }

    private HttpResponse<byte[]> fetch(WebServer server, String path, String method, String userAgent)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(ServletServers.uri(server, path))
                .header("Accept-Encoding", "gzip")
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (userAgent != null) {
            request.header("User-Agent", userAgent);
        }
        return servers.client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String gunzip(byte[] body) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * {@code /text?size=N}: the first N characters of {@link #TEXT} as text/plain (or {@code type}) with a
     * {@code Content-Length}, or flushed at once without one ({@code stream}).
     */
    private static ServletRegistrationBean<HttpServlet> text() {
        return new ServletRegistrationBean<>(new HttpServlet() {
            @Override
            protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                byte[] body = TEXT.substring(0, Integer.parseInt(req.getParameter("size")))
                        .getBytes(StandardCharsets.UTF_8);
                String type = req.getParameter("type");
                resp.setContentType(type != null ? type : "text/plain");
                if (req.getParameter("stream") != null) {
                    resp.flushBuffer();
                } else {
                    resp.setContentLength(body.length);
                }
                resp.getOutputStream().write(body);
            }
        }, "/text");
    }
}
