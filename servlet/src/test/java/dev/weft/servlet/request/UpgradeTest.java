package dev.weft.servlet.request;

import dev.weft.servlet.testing.Curl;
import dev.weft.servlet.testing.ServletServer;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.WebConnection;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code HttpServletRequest.upgrade}: after {@code 101} the handler owns the HTTP/1.1 connection. */
class UpgradeTest {

    static final CountDownLatch destroyed = new CountDownLatch(1);

    /** Upper-cases each line it receives until "bye", then closes. */
    public static final class ShoutingHandler implements HttpUpgradeHandler {
        @Override
        public void init(WebConnection connection) {
            Thread.ofVirtual().start(() -> {
                try (connection) {
                    ServletInputStream in = connection.getInputStream();
                    ServletOutputStream out = connection.getOutputStream();
                    BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
                    for (String line; (line = lines.readLine()) != null && !line.equals("bye"); ) {
                        out.write((line.toUpperCase(Locale.ROOT) + "\n").getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }

        @Override
        public void destroy() {
            destroyed.countDown();
        }
    }

    private static ServletServer server() throws IOException {
        return ServletServer.start(b -> b.initializer((classes, ctx) -> ctx.addServlet("upgrade", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException,
                    jakarta.servlet.ServletException {
                if (!"shout".equals(req.getHeader("Upgrade")) && req.getParameter("anyway") == null) {
                    resp.sendError(426);
                    return;
                }
                req.upgrade(ShoutingHandler.class);
                resp.setHeader("Upgrade", "shout");
                resp.setHeader("Connection", "Upgrade");
            }
        }).addMapping("/upgrade")));
    }

    @Test
    void theHandlerTalksItsOwnProtocolOnTheConnectionAfter101() throws Exception {
        try (ServletServer s = server(); Socket socket = new Socket("127.0.0.1", s.port())) {
            OutputStream out = socket.getOutputStream();
            out.write("GET /upgrade HTTP/1.1\r\nHost: x\r\nUpgrade: shout\r\nConnection: Upgrade\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.UTF_8));
            assertTrue(in.readLine().startsWith("HTTP/1.1 101"));
            String line;
            while (!(line = in.readLine()).isEmpty()) {
                assertTrue(!line.toLowerCase(Locale.ROOT).startsWith("content-length"), line);
            }
            out.write("hello\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            assertEquals("HELLO", in.readLine());
            out.write("weft\nbye\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            assertEquals("WEFT", in.readLine());
            assertEquals(null, in.readLine(), "the handler closed the connection");
            assertTrue(destroyed.await(20, TimeUnit.SECONDS), "destroy was called");
        }
    }

    @Test
    void upgradeIsRefusedOverHttp2() throws Exception {
        try (ServletServer s = server()) {
            Curl c = Curl.ok("--http2-prior-knowledge", "-o", "/dev/null", "-w", "%{http_code}", "-H",
                    "Upgrade: shout", "http://127.0.0.1:" + s.port() + "/upgrade?anyway");
            assertEquals("500", c.out());
        }
    }
}
