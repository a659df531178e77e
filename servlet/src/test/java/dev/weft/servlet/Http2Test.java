package dev.weft.servlet;

import dev.weft.servlet.testing.Curl;
import dev.weft.servlet.testing.ServletServer;
import dev.weft.servlet.testing.Tls;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Servlets over HTTP/2: h2 negotiated by ALPN over TLS, and h2c with prior knowledge. */
class Http2Test {

    private static void servlets(ServletContext ctx) {
        ctx.addServlet("echo", new HttpServlet() {
            @Override
            protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                byte[] body = req.getInputStream().readAllBytes();
                resp.setContentType("text/plain");
                resp.getWriter().print(req.getProtocol() + " " + req.getMethod() + " " + body.length + " "
                        + req.getParameter("n"));
            }
        }).addMapping("/echo");
        ctx.addServlet("big", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                byte[] chunk = new byte[64 * 1024];
                for (int i = 0; i < 16; i++) {
                    resp.getOutputStream().write(chunk);
                }
            }
        }).addMapping("/big");
        var async = ctx.addServlet("async", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                AsyncContext ac = req.startAsync();
                ac.start(() -> {
                    try {
                        ac.getResponse().getWriter().print("async over " + req.getProtocol());
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                    ac.complete();
                });
            }
        });
        async.addMapping("/async");
        async.setAsyncSupported(true);
    }

    @Test
    void h2OverTlsCarriesManyConcurrentRequestsBodiesAndAsyncResponses() throws Exception {
        try (ServletServer s = ServletServer.startTls(b -> b.initializer((classes, ctx) -> servlets(ctx)))) {
            HttpClient client = HttpClient.newBuilder().sslContext(Tls.shared().clientContext())
                    .version(HttpClient.Version.HTTP_2).connectTimeout(Duration.ofSeconds(10)).build();
            List<CompletableFuture<HttpResponse<String>>> pending = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                pending.add(client.sendAsync(HttpRequest.newBuilder(URI.create(s.localhostUrl("/echo?n=" + i)))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[i * 1000])).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            for (int i = 0; i < 50; i++) {
                HttpResponse<String> r = pending.get(i).get(30, TimeUnit.SECONDS);
                assertEquals(HttpClient.Version.HTTP_2, r.version());
                assertEquals("HTTP/2.0 POST " + (i * 1000) + " " + i, r.body());
            }
            HttpResponse<byte[]> big = client.send(HttpRequest.newBuilder(URI.create(s.localhostUrl("/big"))).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(16 * 64 * 1024, big.body().length);
            Curl c = Curl.ok("--http2", "--cacert", Tls.shared().serverPem.toString(), "-w", " %{http_version}",
                    s.localhostUrl("/async"));
            assertEquals("async over HTTP/2.0 2", c.out());
        }
    }

    @Test
    void h2cWithPriorKnowledge() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b.initializer((classes, ctx) -> servlets(ctx)))) {
            String base = "http://127.0.0.1:" + s.port();
            Curl c = Curl.ok("--http2-prior-knowledge", "-w", " %{http_version}", base + "/async");
            assertEquals("async over HTTP/2.0 2", c.out());
            Curl post = Curl.ok("--http2-prior-knowledge", "--data-binary", "hello", base + "/echo?n=1");
            assertEquals("HTTP/2.0 POST 5 1", post.out());
            Curl head = Curl.ok("--http2-prior-knowledge", "-I", base + "/echo");
            assertTrue(head.out().startsWith("HTTP/2 200"), head.out());
        }
    }
}
