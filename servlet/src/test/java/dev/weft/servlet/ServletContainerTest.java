package dev.weft.servlet;

import dev.weft.servlet.testing.Http;
import dev.weft.servlet.testing.ServletServer;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ServletContainerTest {

    static final class HelloServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.setContentType("text/plain");
            resp.getWriter().print("Hello World");
        }
    }

    @Test
    void servletMappedAtHelloAnswersOverARealSocket() throws Exception {
        try (ServletServer s = ServletServer.start(c -> c.initializer((classes, ctx) ->
                ctx.addServlet("hello", new HelloServlet()).addMapping("/hello")))) {
            HttpResponse<String> r = Http.get(s.uri("/hello"));
            assertEquals(200, r.statusCode());
            assertEquals("Hello World", r.body());
            assertEquals("11", r.headers().firstValue("Content-Length").orElseThrow());
            assertEquals("text/plain;charset=ISO-8859-1", r.headers().firstValue("Content-Type").orElseThrow());
        }
    }

    @Test
    void unmappedPathIs404() throws Exception {
        try (ServletServer s = ServletServer.start(c -> c.initializer((classes, ctx) ->
                ctx.addServlet("hello", new HelloServlet()).addMapping("/hello")))) {
            assertEquals(404, Http.get(s.uri("/nothing")).statusCode());
        }
    }
}
