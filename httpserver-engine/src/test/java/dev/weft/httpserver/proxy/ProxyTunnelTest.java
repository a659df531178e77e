package dev.weft.httpserver.proxy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.MiniJson;
import dev.weft.httpserver.testing.TestCertificates;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** CONNECT tunnels through {@link ProxyHandler}: curl {@code -p}, curl over HTTPS with h2 inside, HTTP/2 CONNECT. */
class ProxyTunnelTest {

    private static TestServer origin;
    private static HttpsServer tlsOrigin;
    private static ProxyServers proxy;
    /** An origin that reads until the client's FIN, then answers {@code got N} and closes. */
    private static ServerSocket halfCloseOrigin;

    @BeforeAll
    static void start() throws IOException {
        origin = TestServer.start();
        tlsOrigin = Weft.createHttpsServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        tlsOrigin.setHttpsConfigurator(new HttpsConfigurator(TestCertificates.get().serverContext()));
        tlsOrigin.createContext("/", exchange -> TestServer.respond(exchange, 200, exchange.getProtocol()));
        tlsOrigin.start();
        halfCloseOrigin = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!halfCloseOrigin.isClosed()) {
                try {
                    Socket s = halfCloseOrigin.accept();
                    Thread.ofVirtual().start(() -> answerAfterFin(s));
                } catch (IOException e) {
                    return;
                }
            }
        });
        proxy = ProxyServers.start(ProxyServers.loopbackAllowed().build());
    }

    private static void answerAfterFin(Socket s) {
        try (s) {
            long n = TestServer.drain(s.getInputStream());
            s.getOutputStream().write(("got " + n + "\n").getBytes(StandardCharsets.US_ASCII));
        } catch (IOException ignored) {
            // the test fails on what its client saw
        }
    }

    @AfterAll
    static void stop() throws IOException {
        proxy.close();
        origin.close();
        tlsOrigin.stop(0);
        halfCloseOrigin.close();
    }

    @Test
    void curlProxytunnelReachesACleartextOriginUntouched() throws Exception {
        long opened = proxy.stats().tunnelsOpened();
        long bytes = proxy.stats().tunnelBytes();
        ProxyServers.Curl r = ProxyServers.curl("-p", "-x", proxy.url(), origin.uri("/tunnelled").toString());
        assertEquals(0, r.exit(), r::stderr);
        assertEquals(200, r.status());
        assertTrue(r.body().contains("uri: /tunnelled\n"), r.body());
        assertFalse(r.body().contains("Via"), "a tunnel does not touch the bytes: " + r.body());
        var s = proxy.awaitStats(p -> p.tunnelsOpened() > opened && p.tunnelsActive() == 0 && p.tunnelBytes() > bytes);
        assertTrue(s.tunnelsOpened() > opened, s::toString);
        assertEquals(0, s.tunnelsActive(), s::toString);
        assertTrue(s.tunnelBytes() > bytes + 100, s::toString);
    }

    @Test
    void curlHttpsThroughTheProxyNegotiatesH2InsideTheTunnel() {
        String url = "https://127.0.0.1:" + tlsOrigin.getAddress().getPort() + "/secret";
        ProxyServers.Curl r = ProxyServers.curl("--http2", "--cacert", TestCertificates.get().caPem().toString(),
                "-x", proxy.url(), url);
        assertEquals(0, r.exit(), r::stderr);
        assertEquals(200, r.status());
        assertEquals("2", r.httpVersion(), "curl's %{http_version}: " + r);
        assertEquals("HTTP/2.0", r.body());
    }

    @Test
    void clientHalfCloseReachesTheOriginWhichStillAnswers() throws IOException {
        try (Socket client = connectThrough(halfCloseOrigin.getLocalPort())) {
            client.getOutputStream().write(new byte[1000]);
            client.shutdownOutput();
            assertEquals("got 1000\n", new String(client.getInputStream().readAllBytes(), StandardCharsets.US_ASCII));
        }
    }

    @Test
    void idleTunnelIsClosed() throws Exception {
        try (ProxyServers quick = ProxyServers.start(ProxyServers.loopbackAllowed()
                .idleTimeout(Duration.ofMillis(400)).build());
             ServerSocket silent = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            Thread holder = Thread.ofVirtual().start(() -> {
                try (Socket s = silent.accept()) {
                    TestServer.drain(s.getInputStream());
                } catch (IOException ignored) {
                    // closed by the proxy
                }
            });
            try (Socket client = connectThrough(quick.port(), silent.getLocalPort())) {
                client.setSoTimeout(10_000);
                long start = System.nanoTime();
                int read;
                try {
                    read = client.getInputStream().read();
                } catch (IOException e) {
                    read = -1;
                }
                assertEquals(-1, read, "the idle tunnel ends");
                assertTrue(System.nanoTime() - start >= Duration.ofMillis(300).toNanos(), "not before the timeout");
            }
            holder.join(5000);
            assertFalse(holder.isAlive(), "the origin side was closed too");
            var s = quick.awaitStats(p -> p.tunnelsActive() == 0 && p.tunnelsOpened() == 1);
            assertEquals(0, s.tunnelsActive(), s::toString);
        }
    }

    @Test
    void http2ConnectStreamIsTunnelledWithHalfClose() {
        ExternalTools.requirePythonModule("h2");
        ExternalTools.Result r = ExternalTools.run(List.of(ExternalTools.require("python3").toString(),
                ProxyServers.script("h2_connect.py").toString(), "127.0.0.1", Integer.toString(proxy.port()),
                "127.0.0.1:" + halfCloseOrigin.getLocalPort(), "hello over h2"), Duration.ofSeconds(30));
        assertEquals(0, r.exit(), r::describe);
        @SuppressWarnings("unchecked")
        Map<String, Object> json = (Map<String, Object>) MiniJson.parse(r.stdout().strip());
        assertEquals("200", json.get("status"), r::describe);
        assertEquals("got 13\n", json.get("data"), r::describe);
        assertEquals(Boolean.TRUE, json.get("ended"), r::describe);
        assertNull(json.get("reset"), r::describe);
    }

    @Test
    void pythonWebsocketsClientTalksThroughTheProxy() {
        ExternalTools.Result r = runWebSocketScript(proxy.url());
        assertTrue(r.stdout().contains("\"ok\": true"), r::describe);
    }

    static ExternalTools.Result runWebSocketScript(String proxyUrl) {
        ExternalTools.requirePythonModule("websockets");
        ExternalTools.Result r = ExternalTools.run(List.of(ExternalTools.require("python3").toString(),
                ProxyServers.script("ws_through_proxy.py").toString(), proxyUrl), Duration.ofSeconds(60));
        assertEquals(0, r.exit(), r::describe);
        return r;
    }

    private static Socket connectThrough(int targetPort) throws IOException {
        return connectThrough(proxy.port(), targetPort);
    }

    /** A raw client with a tunnel open to {@code 127.0.0.1:targetPort}; fails unless the proxy answered 200. */
    static Socket connectThrough(int proxyPort, int targetPort) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), proxyPort);
        s.setSoTimeout(10_000);
        String authority = "127.0.0.1:" + targetPort;
        s.getOutputStream().write(("CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        InputStream in = s.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        String h = head.toString(StandardCharsets.US_ASCII);
        assertTrue(h.startsWith("HTTP/1.1 200"), h);
        assertFalse(h.toLowerCase(java.util.Locale.ROOT).contains("content-length"), "RFC 9110 §9.3.6: " + h);
        return s;
    }
}
