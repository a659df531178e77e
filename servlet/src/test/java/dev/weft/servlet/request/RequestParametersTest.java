package dev.weft.servlet.request;

import dev.weft.httpserver.forms.FormLimits;
import dev.weft.servlet.testing.Curl;
import dev.weft.servlet.testing.Http;
import dev.weft.servlet.testing.PathReport;
import dev.weft.servlet.testing.ServletServer;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Query and form parameters, request encodings, body access, and bad input answered with a 4xx. */
class RequestParametersTest {

    private static ServletServer server;

    @BeforeAll
    static void start() throws IOException {
        server = ServletServer.start(b -> b
                .formLimits(FormLimits.builder().maxFields(20).maxTotalSize(4096).build())
                .initializer((classes, ctx) -> {
                    ctx.addServlet("params", new PathReport("params")).addMapping("/params");
                    ctx.addServlet("utf8", new HttpServlet() {
                        @Override
                        protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                            req.setCharacterEncoding("UTF-8");
                            resp.setContentType("text/plain;charset=UTF-8");
                            resp.getWriter().print(req.getParameter("name"));
                        }
                    }).addMapping("/utf8");
                    ctx.addServlet("stream-then-params", new HttpServlet() {
                        @Override
                        protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                            String body = new String(req.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                            resp.getWriter().print(body + "|" + req.getParameter("a") + "|" + req.getParameter("q"));
                        }
                    }).addMapping("/stream-then-params");
                    ctx.addServlet("reader-vs-stream", new HttpServlet() {
                        @Override
                        protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                            String line = req.getReader().readLine();
                            try {
                                req.getInputStream();
                                resp.getWriter().print("no exception");
                            } catch (IllegalStateException e) {
                                resp.getWriter().print(line + " then IllegalStateException");
                            }
                        }
                    }).addMapping("/reader-vs-stream");
                    ctx.addServlet("charset", new HttpServlet() {
                        @Override
                        protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                            resp.getWriter().print(req.getCharacterEncoding());
                        }
                    }).addMapping("/charset");
                }));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static HttpResponse<String> post(String path, String contentType, byte[] body) throws Exception {
        return Http.send(Http.request(server.uri(path)).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
    }

    @Test
    void queryParametersComeBeforeFormParametersOfTheSameName() throws Exception {
        HttpResponse<String> r = post("/params?a=hello&b=x", "application/x-www-form-urlencoded",
                "a=goodbye&a=world&c=%21+z".getBytes(StandardCharsets.US_ASCII));
        Map<String, String> p = PathReport.parse(r.body());
        assertEquals("hello,goodbye,world", p.get("param.a"));
        assertEquals("x", p.get("param.b"));
        assertEquals("! z", p.get("param.c"));
    }

    @Test
    void queryStringsAreUtf8AndFormsDefaultToIso88591() throws Exception {
        assertEquals("é€", PathReport.parse(Http.get(server.uri("/params?v=%C3%A9%E2%82%AC")).body()).get("param.v"));
        HttpResponse<String> latin = post("/params", "application/x-www-form-urlencoded",
                "v=%E9".getBytes(StandardCharsets.US_ASCII));
        assertEquals("é", PathReport.parse(latin.body()).get("param.v"));
        HttpResponse<String> declared = post("/params", "application/x-www-form-urlencoded; charset=UTF-8",
                "v=%C3%A9".getBytes(StandardCharsets.US_ASCII));
        assertEquals("é", PathReport.parse(declared.body()).get("param.v"));
    }

    @Test
    void setCharacterEncodingBeforeReadingDecidesTheFormsCharset() throws Exception {
        HttpResponse<String> r = post("/utf8", "application/x-www-form-urlencoded",
                "name=%E2%82%AC".getBytes(StandardCharsets.US_ASCII));
        assertEquals("€", r.body());
    }

    @Test
    void theContextsRequestEncodingIsTheDefault() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b.requestCharacterEncoding(StandardCharsets.UTF_8)
                .initializer((classes, ctx) -> ctx.addServlet("p", new PathReport("p")).addMapping("/p")))) {
            HttpResponse<String> r = Http.send(Http.request(s.uri("/p"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("v=%E2%82%AC")).build());
            assertEquals("€", PathReport.parse(r.body()).get("param.v"));
        }
    }

    @Test
    void characterEncodingIsNullWhenNeitherClientNorContextSetsOne() throws Exception {
        assertEquals("null", post("/charset", "text/plain", new byte[0]).body());
        assertEquals("UTF-16", post("/charset", "text/plain; charset=\"UTF-16\"", new byte[0]).body());
    }

    @Test
    void aFormBodyReadAsAStreamIsNotParsed() throws Exception {
        HttpResponse<String> r = post("/stream-then-params?q=1", "application/x-www-form-urlencoded",
                "a=1".getBytes(StandardCharsets.US_ASCII));
        assertEquals("a=1|null|1", r.body());
    }

    @Test
    void getReaderThenGetInputStreamIsIllegal() throws Exception {
        assertEquals("line then IllegalStateException",
                post("/reader-vs-stream", "text/plain", "line\n".getBytes(StandardCharsets.US_ASCII)).body());
    }

    @Test
    void formsOfOtherMethodsAreLeftToTheApplication() throws Exception {
        HttpResponse<String> r = Http.send(Http.request(server.uri("/params"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .PUT(HttpRequest.BodyPublishers.ofString("a=1")).build());
        assertFalse(r.body().contains("param.a"), r.body());
    }

    @Test
    void malformedPercentEncodingInTheQueryIsA400WithNothingLeaked() throws Exception {
        Curl c = Curl.ok("-i", "http://127.0.0.1:" + server.port() + "/params?a=%E9");
        assertTrue(c.out().startsWith("HTTP/1.1 400"), c.out());
        assertFalse(c.out().contains("Exception"), c.out());
        HttpResponse<String> form = post("/params", "application/x-www-form-urlencoded",
                "a=%zz".getBytes(StandardCharsets.US_ASCII));
        assertEquals(400, form.statusCode());
    }

    @Test
    void tooManyParametersIsA413() throws Exception {
        StringBuilder q = new StringBuilder("/params?p0=0");
        for (int i = 1; i <= 20; i++) {
            q.append("&p").append(i).append('=').append(i);
        }
        assertEquals(413, Http.get(server.uri(q.toString())).statusCode());
        assertEquals(200, Http.get(server.uri("/params?p=1")).statusCode(), "the next request is served");
    }

    @Test
    void aFormOverTheSizeLimitIsA413() throws Exception {
        byte[] big = ("a=" + "x".repeat(5000)).getBytes(StandardCharsets.US_ASCII);
        assertEquals(413, post("/params", "application/x-www-form-urlencoded", big).statusCode());
    }

    @Test
    void aWrongCharsetIsA4xx() throws Exception {
        assertEquals(415, post("/params", "application/x-www-form-urlencoded; charset=no-such-charset",
                "a=1".getBytes(StandardCharsets.US_ASCII)).statusCode());
        assertEquals(400, post("/params", "application/x-www-form-urlencoded; charset=UTF-8",
                "a=%C3%28".getBytes(StandardCharsets.US_ASCII)).statusCode(), "bytes that are not UTF-8");
    }
}
