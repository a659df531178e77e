package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** After 101 (or 2xx to CONNECT) the exchange streams are the raw connection in both directions. */
@Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class UpgradeTest {

    private HttpServer server;

    @BeforeEach
    void start() throws IOException {
        server = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        server.createContext("/", UpgradeTest::handle);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private static void handle(HttpExchange ex) throws IOException {
        if (ex.getRequestMethod().equals("CONNECT")) {
            ex.sendResponseHeaders(200, 0);
            echo(ex);
        } else if ("once".equalsIgnoreCase(ex.getRequestHeaders().getFirst("Upgrade"))) {
            ex.getResponseHeaders().set("Upgrade", "once");
            ex.getResponseHeaders().set("Connection", "Upgrade");
            ex.sendResponseHeaders(101, 0);
            try (ex) {
                byte[] in = ex.getRequestBody().readNBytes(4);
                ex.getResponseBody().write(("got " + new String(in, StandardCharsets.ISO_8859_1)).getBytes(
                        StandardCharsets.ISO_8859_1));
                ex.getResponseBody().flush();
            }
        } else if ("echo".equalsIgnoreCase(ex.getRequestHeaders().getFirst("Upgrade"))) {
            ex.getResponseHeaders().set("Upgrade", "echo");
            ex.getResponseHeaders().set("Connection", "Upgrade");
            ex.sendResponseHeaders(101, 0);
            echo(ex);
        } else {
            ex.sendResponseHeaders(426, -1);
            ex.close();
        }
    }

    /** Copies the request stream to the response stream, flushing every read, until end of stream. */
    private static void echo(HttpExchange ex) throws IOException {
        try (ex) {
            InputStream in = ex.getRequestBody();
            OutputStream out = ex.getResponseBody();
            byte[] buf = new byte[1024];
            for (int n; (n = in.read(buf)) >= 0; ) {
                out.write(buf, 0, n);
                out.flush();
            }
        }
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", server.getAddress().getPort()), 5000);
        s.setSoTimeout(5000);
        s.setTcpNoDelay(true);
        return s;
    }

    /** Reads the response head byte by byte, so that nothing after it is consumed. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("closed inside the response head: " + head);
            }
            head.write(b);
            byte[] h = head.toByteArray();
            int n = h.length;
            if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
                return head.toString(StandardCharsets.ISO_8859_1);
            }
        }
    }

    private static void assertEchoes(Socket s, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        s.getOutputStream().write(bytes);
        s.getOutputStream().flush();
        assertArrayEquals(bytes, s.getInputStream().readNBytes(bytes.length), "echo of " + text);
    }

    private static void assertNoFraming(String head) {
        String lower = head.toLowerCase(Locale.ROOT);
        assertFalse(lower.contains("\r\ntransfer-encoding:"), head);
        assertFalse(lower.contains("\r\ncontent-length:"), head);
    }

    /** Ends our side; the handler sees end of stream, closes the exchange, and the server closes. */
    private static void assertClosesAfterClientEof(Socket s) throws IOException {
        s.shutdownOutput();
        assertEquals(-1, s.getInputStream().read(), "connection not closed after the exchange was closed");
    }

    @Test
    void upgradedConnectionEchoesRawBytesBothWays() throws IOException {
        try (Socket s = connect()) {
            s.getOutputStream().write(("GET /chat HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\n"
                    + "Upgrade: echo\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            String head = readHead(s.getInputStream());
            assertTrue(head.startsWith("HTTP/1.1 101 "), head);
            assertTrue(head.toLowerCase(Locale.ROOT).contains("\r\nupgrade: echo\r\n"), head);
            assertNoFraming(head);

            assertEchoes(s, "ping\n");
            assertEchoes(s, "0\r\n\r\nnot-chunked-framing\r\n");
            assertEchoes(s, "x".repeat(20_000));
            assertClosesAfterClientEof(s);
        }
    }

    @Test
    void connectTunnelEchoesRawBytesBothWays() throws IOException {
        try (Socket s = connect()) {
            s.getOutputStream().write("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            String head = readHead(s.getInputStream());
            assertTrue(head.startsWith("HTTP/1.1 200 "), head);
            assertNoFraming(head);

            assertEchoes(s, "\u0016\u0003\u0001 pretend TLS bytes");
            assertEchoes(s, "GET / HTTP/1.1\r\n\r\n");
            assertClosesAfterClientEof(s);
        }
    }

    @Test
    void closingTheUpgradedExchangeClosesTheConnection() throws IOException {
        try (Socket s = connect()) {
            s.getOutputStream().write(("GET /once HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\n"
                    + "Upgrade: once\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            assertTrue(readHead(s.getInputStream()).startsWith("HTTP/1.1 101 "));
            assertEchoesAs(s, "ping", "got ping");
            assertEquals(-1, s.getInputStream().read(), "connection open after the handler closed the exchange");
        }
    }

    private static void assertEchoesAs(Socket s, String send, String expected) throws IOException {
        s.getOutputStream().write(send.getBytes(StandardCharsets.ISO_8859_1));
        s.getOutputStream().flush();
        byte[] want = expected.getBytes(StandardCharsets.ISO_8859_1);
        assertArrayEquals(want, s.getInputStream().readNBytes(want.length));
    }
}
