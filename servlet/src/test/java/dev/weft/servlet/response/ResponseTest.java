package dev.weft.servlet.response;

import dev.weft.servlet.testing.Curl;
import dev.weft.servlet.testing.Http;
import dev.weft.servlet.testing.ServletServer;
import dev.weft.servlet.testing.Servlets;
import jakarta.servlet.http.Cookie;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Buffering and commit, framing, HEAD, redirects, character encodings, cookies and trailers (§5). */
class ResponseTest {

    private static ServletServer server;

    private static void map(jakarta.servlet.ServletContext ctx, String path, Servlets.Action action) {
        Servlets.map(ctx, path, action);
    }

    @BeforeAll
    static void start() throws IOException {
        server = ServletServer.start(b -> b
                .responseBufferSize(1024)
                .localeCharset(Locale.GERMAN, StandardCharsets.UTF_8)
                .cookieSameSite(c -> c.getName().equals("relaxed") ? "Lax" : null)
                .initializer((classes, ctx) -> {
                    map(ctx, "/small", (req, resp) -> resp.getOutputStream().write(new byte[500]));
                    map(ctx, "/large", (req, resp) -> resp.getOutputStream().write(new byte[5000]));
                    map(ctx, "/bigger-buffer", (req, resp) -> {
                        resp.setBufferSize(10_000);
                        resp.getOutputStream().write(new byte[5000]);
                    });
                    map(ctx, "/pieces", (req, resp) -> {
                        resp.setBufferSize(10_000);
                        byte[] body = pieces();
                        for (int off = 0, n = 1; off < body.length; off += n, n = n % 97 + 1) {
                            resp.getOutputStream().write(body, off, Math.min(n, body.length - off));
                        }
                    });
                    map(ctx, "/buffer-after-write", (req, resp) -> {
                        resp.getWriter().print("x");
                        try {
                            resp.setBufferSize(10);
                        } catch (IllegalStateException e) {
                            resp.getWriter().print(" IllegalStateException");
                        }
                    });
                    map(ctx, "/flush", (req, resp) -> {
                        resp.getWriter().print("first ");
                        resp.flushBuffer();
                        boolean committed = resp.isCommitted();
                        resp.setHeader("X-Late", "ignored");
                        try {
                            resp.sendError(500);
                            resp.getWriter().print("no exception");
                        } catch (IllegalStateException e) {
                            resp.getWriter().print("committed=" + committed + " then IllegalStateException");
                        }
                    });
                    map(ctx, "/reset", (req, resp) -> {
                        resp.setStatus(404);
                        resp.setHeader("X-Gone", "yes");
                        resp.getWriter().print("gone");
                        resp.reset();
                        resp.setHeader("X-Kept", "yes");
                        resp.getOutputStream().print("after reset");
                    });
                    map(ctx, "/reset-buffer", (req, resp) -> {
                        resp.setStatus(202);
                        resp.setHeader("X-Kept", "yes");
                        resp.getWriter().print("gone");
                        resp.resetBuffer();
                        resp.getWriter().print("kept headers");
                    });
                    map(ctx, "/content-length", (req, resp) -> {
                        resp.setContentLength(5);
                        resp.getOutputStream().write("hello world".getBytes(StandardCharsets.US_ASCII));
                        resp.getOutputStream().write("more".getBytes(StandardCharsets.US_ASCII));
                    });
                    map(ctx, "/redirect", (req, resp) -> resp.sendRedirect("target?x=1"));
                    map(ctx, "/redirect-root", (req, resp) -> resp.sendRedirect("/elsewhere"));
                    map(ctx, "/redirect-301", (req, resp) -> resp.sendRedirect("https://example.com/a", 301));
                    map(ctx, "/redirect-keep", (req, resp) -> {
                        resp.getWriter().print("my own body");
                        resp.sendRedirect("/x", 307, false);
                    });
                    map(ctx, "/encoding/content-type", (req, resp) -> {
                        resp.setContentType("text/html; charset=UTF-8");
                        resp.getWriter().print("é");
                    });
                    map(ctx, "/encoding/default", (req, resp) -> {
                        resp.setContentType("text/plain");
                        resp.getWriter().print("é");
                    });
                    map(ctx, "/encoding/locale", (req, resp) -> {
                        resp.setContentType("text/plain");
                        resp.setLocale(Locale.GERMANY);
                        resp.getWriter().print("€");
                    });
                    map(ctx, "/encoding/after-writer", (req, resp) -> {
                        resp.setContentType("text/plain");
                        resp.getWriter().print("é");
                        resp.setCharacterEncoding("UTF-8");
                        resp.setContentType("text/html;charset=UTF-16");
                    });
                    map(ctx, "/encoding/stream", (req, resp) -> {
                        resp.setContentType("application/octet-stream");
                        resp.getOutputStream().write(1);
                    });
                    map(ctx, "/encoding/setter-wins-over-locale", (req, resp) -> {
                        resp.setCharacterEncoding("UTF-16BE");
                        resp.setLocale(Locale.GERMAN);
                        resp.setContentType("text/plain");
                        resp.getWriter().print("a");
                    });
                    map(ctx, "/cookies", (req, resp) -> {
                        resp.addCookie(new Cookie("test", "test"));
                        Cookie strict = new Cookie("strict", "1");
                        strict.setAttribute("SameSite", "Strict");
                        strict.setAttribute("Partitioned", "");
                        strict.setSecure(true);
                        strict.setHttpOnly(true);
                        strict.setPath("/p");
                        strict.setMaxAge(60);
                        resp.addCookie(strict);
                        resp.addCookie(new Cookie("relaxed", "2"));
                    });
                    map(ctx, "/bad-header", (req, resp) -> resp.setHeader("X-Split", "a\r\nSet-Cookie: evil=1"));
                    map(ctx, "/trailers", (req, resp) -> {
                        resp.setHeader("Trailer", "x-checksum");
                        resp.setTrailerFields(() -> Map.of("x-checksum", "42"));
                        resp.getWriter().print("body");
                    });
                    map(ctx, "/head", (req, resp) -> {
                        resp.setContentType("text/plain");
                        resp.getWriter().print("twelve bytes");
                    });
                }));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    /** curl's response head (status line and fields) for a GET, lower-cased field names. */
    private static String head(String path, String... extra) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("-sS", "-o", "/dev/null", "-D", "-"));
        args.addAll(List.of(extra));
        args.add(url(path));
        return Curl.ok(args.toArray(new String[0])).out().toLowerCase(Locale.ROOT);
    }

    @Test
    void aBodyThatFitsTheBufferGetsAContentLength() throws Exception {
        String h = head("/small");
        assertTrue(h.contains("content-length: 500"), h);
        assertFalse(h.contains("transfer-encoding"), h);
    }

    @Test
    void aBodyLargerThanTheBufferIsStreamedChunked() throws Exception {
        String h = head("/large");
        assertTrue(h.contains("transfer-encoding: chunked"), h);
        assertFalse(h.contains("content-length"), h);
        assertEquals(5000, Http.get(server.uri("/large")).body().length());
    }

    /** 9,000 ASCII bytes, none like its neighbours. */
    private static byte[] pieces() {
        byte[] body = new byte[9000];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) ('!' + (i * 7 + i / 94) % 94);
        }
        return body;
    }

    @Test
    void manySmallWritesThatFitTheBufferKeepEveryByteAndGetAContentLength() throws Exception {
        assertTrue(head("/pieces").contains("content-length: 9000"));
        assertEquals(new String(pieces(), StandardCharsets.US_ASCII), Http.get(server.uri("/pieces")).body());
    }

    @Test
    void setBufferSizeBeforeWritingEnlargesTheBufferAndAfterwardsIsIllegal() throws Exception {
        assertTrue(head("/bigger-buffer").contains("content-length: 5000"));
        assertEquals("x IllegalStateException", Http.get(server.uri("/buffer-after-write")).body());
    }

    @Test
    void flushBufferCommitsAndThenHeadersAndSendErrorCannotChangeIt() throws Exception {
        HttpResponse<String> r = Http.get(server.uri("/flush"));
        assertEquals(200, r.statusCode());
        assertEquals("first committed=true then IllegalStateException", r.body());
        assertTrue(r.headers().firstValue("X-Late").isEmpty());
    }

    @Test
    void resetClearsStatusHeadersAndBodyAndResetBufferOnlyTheBody() throws Exception {
        HttpResponse<String> reset = Http.get(server.uri("/reset"));
        assertEquals(200, reset.statusCode());
        assertEquals("after reset", reset.body(), "getOutputStream after getWriter is legal after reset");
        assertTrue(reset.headers().firstValue("X-Gone").isEmpty());
        assertEquals("yes", reset.headers().firstValue("X-Kept").orElseThrow());
        HttpResponse<String> rb = Http.get(server.uri("/reset-buffer"));
        assertEquals(202, rb.statusCode());
        assertEquals("kept headers", rb.body());
        assertEquals("yes", rb.headers().firstValue("X-Kept").orElseThrow());
    }

    @Test
    void aDeclaredContentLengthClosesTheResponseOnceWritten() throws Exception {
        HttpResponse<String> r = Http.get(server.uri("/content-length"));
        assertEquals("hello", r.body());
        assertEquals("5", r.headers().firstValue("Content-Length").orElseThrow());
        assertEquals(200, Http.get(server.uri("/small")).statusCode(), "the connection carries on");
    }

    @Test
    void headSendsTheGetHeadersWithoutTheBody() throws Exception {
        Curl c = Curl.ok("-I", url("/head"));
        String h = c.out().toLowerCase(Locale.ROOT);
        assertTrue(h.startsWith("http/1.1 200"), h);
        assertTrue(h.contains("content-length: 12"), h);
        assertTrue(h.contains("content-type: text/plain;charset=iso-8859-1"), h);
    }

    @Test
    void redirectsAreAbsoluteAndTheServlet61FormsSetStatusAndKeepTheBody() throws Exception {
        HttpResponse<String> rel = Http.get(server.uri("/redirect"));
        assertEquals(302, rel.statusCode());
        assertEquals("http://127.0.0.1:" + server.port() + "/target?x=1",
                rel.headers().firstValue("Location").orElseThrow());
        assertTrue(rel.body().contains("Moved to"), rel.body());
        assertEquals("http://127.0.0.1:" + server.port() + "/elsewhere",
                Http.get(server.uri("/redirect-root")).headers().firstValue("Location").orElseThrow());
        HttpResponse<String> permanent = Http.get(server.uri("/redirect-301"));
        assertEquals(301, permanent.statusCode());
        assertEquals("https://example.com/a", permanent.headers().firstValue("Location").orElseThrow());
        HttpResponse<String> keep = Http.get(server.uri("/redirect-keep"));
        assertEquals(307, keep.statusCode());
        assertEquals("my own body", keep.body());
    }

    @Test
    void characterEncodingRules() throws Exception {
        HttpResponse<byte[]> ct = Http.client().send(Http.request(server.uri("/encoding/content-type")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals("text/html;charset=UTF-8", ct.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("é", new String(ct.body(), StandardCharsets.UTF_8));
        HttpResponse<byte[]> def = Http.client().send(Http.request(server.uri("/encoding/default")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals("text/plain;charset=ISO-8859-1", def.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(1, def.body().length);
        HttpResponse<String> locale = Http.get(server.uri("/encoding/locale"));
        assertEquals("text/plain;charset=UTF-8", locale.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("de-DE", locale.headers().firstValue("Content-Language").orElseThrow());
        assertEquals("€", locale.body());
        HttpResponse<String> after = Http.get(server.uri("/encoding/after-writer"));
        assertEquals("text/html;charset=ISO-8859-1", after.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("application/octet-stream",
                Http.get(server.uri("/encoding/stream")).headers().firstValue("Content-Type").orElseThrow());
        assertEquals("text/plain;charset=UTF-16BE", Http.get(server.uri("/encoding/setter-wins-over-locale"))
                .headers().firstValue("Content-Type").orElseThrow());
    }

    @Test
    void cookiesCarryTheirAttributesAndTheSameSiteChooserOnlyAddsWhereNoneIsSet() throws Exception {
        List<String> cookies = Http.get(server.uri("/cookies")).headers().allValues("Set-Cookie");
        assertEquals("test=test", cookies.get(0));
        String strict = cookies.get(1);
        assertTrue(strict.startsWith("strict=1"), strict);
        for (String part : new String[] {"; SameSite=Strict", "; Partitioned", "; Secure", "; HttpOnly", "; Path=/p",
            "; Max-Age=60", "; Expires="}) {
            assertTrue(strict.contains(part), strict + " lacks " + part);
        }
        assertEquals("relaxed=2; SameSite=Lax", cookies.get(2));
    }

    @Test
    void aHeaderValueThatWouldSplitTheResponseIsRefused() throws Exception {
        HttpResponse<String> r = Http.get(server.uri("/bad-header"));
        assertEquals(500, r.statusCode());
        assertTrue(r.headers().firstValue("Set-Cookie").isEmpty());
    }

    @Test
    void trailerFieldsFollowAChunkedHttp1Body() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            OutputStream out = socket.getOutputStream();
            out.write("GET /trailers HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(response.contains("Transfer-Encoding: chunked"), response);
            assertTrue(response.contains("4\r\nbody\r\n0\r\nx-checksum: 42\r\n\r\n")
                    || response.contains("4\r\nbody\r\n0\r\nX-checksum: 42\r\n\r\n"), response);
        }
    }

    @Test
    void trailerFieldsOverH2c() throws Exception {
        Process p = new ProcessBuilder("nghttp", "-v", url("/trailers")).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor());
        assertTrue(out.contains("x-checksum: 42"), out);
    }
}
