package dev.weft.httpserver.proxy;

import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Absolute-form requests forwarded by {@link ProxyHandler}, driven by curl {@code -x}. */
class ProxyForwardingTest {

    private static TestServer origin;
    private static ProxyServers proxy;

    @BeforeAll
    static void start() throws IOException {
        origin = TestServer.builder()
                .handle("/echo", TestServer.echoHandler())
                .handle("/body", TestServer.bodyEchoHandler())
                .handle("/stream", exchange -> {
                    exchange.sendResponseHeaders(200, 0);
                    try (OutputStream out = exchange.getResponseBody()) {
                        for (int i = 0; i < 5; i++) {
                            out.write(("part " + i + "\n").getBytes(StandardCharsets.US_ASCII));
                            out.flush();
                        }
                    }
                })
                .start();
        proxy = ProxyServers.start(ProxyServers.loopbackAllowed()
                .responseTimeout(Duration.ofMillis(700)).build());
    }

    @AfterAll
    static void stop() {
        proxy.close();
        origin.close();
    }

    @Test
    void curlGetIsForwardedWithViaAndForwardedAndHostFromTheTarget() {
        long before = proxy.stats().requestsForwarded();
        ProxyServers.Curl r = ProxyServers.curl("-x", proxy.url(), origin.uri("/echo?a=1&b=x%20y").toString());
        assertEquals(0, r.exit(), r::stderr);
        assertEquals(200, r.status());
        assertTrue(r.body().contains("uri: /echo?a=1&b=x%20y\n"), r.body());
        assertTrue(r.body().contains("header Host: 127.0.0.1:" + origin.port() + "\n"), r.body());
        assertTrue(r.body().contains("header Via: 1.1 weft\n"), r.body());
        assertTrue(r.body().contains("header Forwarded: for=127.0.0.1;host=\"127.0.0.1:" + origin.port()
                + "\";proto=http\n"), r.body());
        assertTrue(proxy.stats().requestsForwarded() > before);
    }

    @Test
    void hopByHopFieldsAreRemovedBothWays() {
        ProxyServers.Curl r = ProxyServers.curl("-x", proxy.url(), "-i",
                "-H", "Connection: X-Drop-Me", "-H", "X-Drop-Me: 1", "-H", "Keep-Alive: timeout=9",
                "-H", "Proxy-Connection: keep-alive", "-H", "TE: trailers", "-H", "X-Keep: yes",
                "-H", "Via: 1.0 earlier-proxy", origin.uri("/echo").toString());
        assertEquals(200, r.status(), r::stderr);
        String b = r.body();
        assertTrue(b.contains("header X-keep: yes\n"), b);
        assertFalse(b.contains("X-drop-me"), b);
        assertFalse(b.contains("Keep-alive"), b);
        assertFalse(b.contains("Proxy-connection"), b);
        assertFalse(b.contains("header Te:"), b);
        assertTrue(b.contains("header Via: 1.0 earlier-proxy\nheader Via: 1.1 weft\n")
                || b.contains("header Via: 1.0 earlier-proxy, 1.1 weft\n"), b);
        assertTrue(b.contains("header Connection: close\n"), "the proxy's own hop: " + b);

    }

    @Test
    void hopByHopResponseFieldsAreRemoved() throws Exception {
        // A raw origin: a Weft origin would not send a Connection field naming others.
        String response = "HTTP/1.1 200 OK\r\nConnection: X-Secret, close\r\nX-Secret: hop\r\n"
                + "Keep-Alive: timeout=5\r\nProxy-Authenticate: Basic realm=\"upstream\"\r\n"
                + "X-Public: end-to-end\r\nContent-Length: 4\r\n\r\nhop\n";
        try (ServerSocket raw = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                try (Socket s = raw.accept()) {
                    s.getInputStream().read(new byte[4096]);
                    s.getOutputStream().write(response.getBytes(StandardCharsets.US_ASCII));
                } catch (IOException ignored) {
                    // the test fails on what curl saw
                }
            });
            ProxyServers.Curl hop = ProxyServers.curl("-x", proxy.url(), "-i",
                    "http://127.0.0.1:" + raw.getLocalPort() + "/hop");
            String head = hop.body().toLowerCase(java.util.Locale.ROOT);
            assertEquals(200, hop.status(), hop::stderr);
            assertFalse(head.contains("x-secret"), head);
            assertFalse(head.contains("keep-alive"), head);
            assertFalse(head.contains("proxy-authenticate"), head);
            assertTrue(head.contains("x-public: end-to-end"), head);
            assertTrue(head.contains("via: 1.1 weft"), head);
            assertTrue(head.endsWith("\r\n\r\nhop\n"), head);
        }
    }

    @Test
    void chunkedPostIsStreamedToTheOriginAndBack() throws Exception {
        byte[] data = new byte[3 * 1024 * 1024 + 17];
        new Random(7).nextBytes(data);
        Path in = Files.createTempFile("weft-proxy-upload", ".bin");
        Path out = Files.createTempFile("weft-proxy-download", ".bin");
        try {
            Files.write(in, data);
            ProxyServers.Curl r = ProxyServers.curl("-x", proxy.url(), "-H", "Transfer-Encoding: chunked",
                    "--data-binary", "@" + in, "-o", out.toString(), origin.uri("/body").toString());
            assertEquals(0, r.exit(), r::stderr);
            assertEquals(200, r.status());
            assertEquals(sha256(data), sha256(Files.readAllBytes(out)));
            ProxyServers.Curl fixed = ProxyServers.curl("-x", proxy.url(), "--data-binary", "@" + in,
                    "-o", out.toString(), origin.uri("/body").toString());
            assertEquals(200, fixed.status(), fixed::stderr);
            assertEquals(sha256(data), sha256(Files.readAllBytes(out)));
        } finally {
            Files.deleteIfExists(in);
            Files.deleteIfExists(out);
        }
    }

    @Test
    void chunkedResponseIsRelayed() {
        ProxyServers.Curl r = ProxyServers.curl("-x", proxy.url(), origin.uri("/stream").toString());
        assertEquals(200, r.status(), r::stderr);
        assertEquals("part 0\npart 1\npart 2\npart 3\npart 4\n", r.body());
    }

    @Test
    void refusedConnectionIs502() throws Exception {
        long before = proxy.stats().upstreamFailures();
        int port = ProxyServers.closedPort();
        ProxyServers.Curl r = ProxyServers.curl("-x", proxy.url(), "http://127.0.0.1:" + port + "/");
        assertEquals(502, r.status(), r::stderr);
        assertTrue(proxy.awaitStats(s -> s.upstreamFailures() > before).upstreamFailures() > before);
    }

    @Test
    void silentOriginIs504AfterTheResponseTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            Thread acceptor = Thread.ofVirtual().start(() -> {
                try (Socket s = silent.accept()) {
                    InputStream in = s.getInputStream();
                    while (in.read() >= 0) {
                        // read the request, never answer
                    }
                } catch (IOException ignored) {
                    // the proxy gave up
                }
            });
            ProxyServers.Curl r = ProxyServers.curl("-x", proxy.url(),
                    "http://127.0.0.1:" + silent.getLocalPort() + "/slow");
            assertEquals(504, r.status(), r::stderr);
            acceptor.join(5000);
        }
    }

    @Test
    void malformedResponseIs502() throws Exception {
        try (ServerSocket bad = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                try (Socket s = bad.accept()) {
                    s.getInputStream().read(new byte[4096]);
                    s.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello"
                            .getBytes(StandardCharsets.US_ASCII));
                } catch (IOException ignored) {
                    // the proxy gave up
                }
            });
            ProxyServers.Curl r = ProxyServers.curl("-x", proxy.url(), "http://127.0.0.1:" + bad.getLocalPort() + "/");
            assertEquals(502, r.status(), r::stderr);
        }
    }

    @Test
    void originFormRequestToTheProxyIs400() {
        ProxyServers.Curl r = ProxyServers.curl(proxy.url() + "/just-a-path");
        assertEquals(400, r.status(), r::stderr);
    }

    private static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }
}
