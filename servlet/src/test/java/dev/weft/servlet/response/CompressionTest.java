package dev.weft.servlet.response;

import dev.weft.servlet.ResponseCompression;
import dev.weft.servlet.testing.Curl;
import dev.weft.servlet.testing.ServletServer;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Gzip compression of response bodies, as Spring Boot's {@code server.compression} asks of a server. */
class CompressionTest {

    private static ServletServer server;

    @BeforeAll
    static void start() throws IOException {
        server = ServletServer.start(b -> b
                .compression(new ResponseCompression(List.of("text/plain", "text/html"), 2048, List.of("testUserAgent")))
                .initializer((classes, ctx) -> ctx.addServlet("text", new HttpServlet() {
                    @Override
                    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                        resp.setContentType(req.getParameter("type") == null ? "text/plain" : req.getParameter("type"));
                        int size = Integer.parseInt(req.getParameter("size"));
                        resp.getWriter().print("x".repeat(size));
                        if (req.getParameter("flush") != null) {
                            resp.flushBuffer();
                        }
                    }

                    @Override
                    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                        doGet(req, resp);
                    }
                }).addMapping("/text")));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String headers(String query, String... extra) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("-o", "/dev/null", "-D", "-", "-H",
                "Accept-Encoding: gzip"));
        args.addAll(List.of(extra));
        args.add("http://127.0.0.1:" + server.port() + "/text?" + query);
        return Curl.ok(args.toArray(new String[0])).out().toLowerCase(Locale.ROOT);
    }

    @Test
    void aLargeTextBodyIsGzippedAndDecodesToTheSameText() throws Exception {
        String h = headers("size=10000");
        assertTrue(h.contains("content-encoding: gzip"), h);
        assertTrue(h.contains("vary: accept-encoding"), h);
        assertEquals("x".repeat(10000), Curl.ok("--compressed", "http://127.0.0.1:" + server.port()
                + "/text?size=10000").out());
        assertTrue(headers("size=10000", "-X", "POST").contains("content-encoding: gzip"));
    }

    @Test
    void smallBodiesOtherTypesExcludedAgentsAndClientsWithoutGzipAreNotCompressed() throws Exception {
        assertFalse(headers("size=100").contains("content-encoding"));
        assertFalse(headers("size=10000&type=application/octet-stream").contains("content-encoding"));
        assertFalse(headers("size=10000", "-A", "testUserAgent").contains("content-encoding"));
        String plain = Curl.ok("-o", "/dev/null", "-D", "-", "http://127.0.0.1:" + server.port()
                + "/text?size=10000").out().toLowerCase(Locale.ROOT);
        assertFalse(plain.contains("content-encoding"), plain);
        String refused = Curl.ok("-o", "/dev/null", "-D", "-", "-H", "Accept-Encoding: gzip;q=0, identity",
                "http://127.0.0.1:" + server.port() + "/text?size=10000").out().toLowerCase(Locale.ROOT);
        assertFalse(refused.contains("content-encoding"), refused);
    }

    @Test
    void aStreamedBodyOfUnknownLengthIsCompressedEvenWhenSmall() throws Exception {
        assertTrue(headers("size=11&flush=1").contains("content-encoding: gzip"));
        assertEquals("x".repeat(11), Curl.ok("--compressed", "http://127.0.0.1:" + server.port()
                + "/text?size=11&flush=1").out());
    }
}
