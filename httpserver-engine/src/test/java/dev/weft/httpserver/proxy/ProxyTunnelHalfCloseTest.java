package dev.weft.httpserver.proxy;

import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.MiniJson;
import dev.weft.httpserver.testing.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CONNECT tunnels whose target ends its side first (RFC 9110 §9.3.6, RFC 9113 §8.5): the client gets the
 * target's bytes and then the end (FIN, TLS close_notify, END_STREAM), and what it sends afterwards still
 * reaches the target. Over HTTP/1.1 with a raw socket and with Python's ssl (OpenSSL) to an HTTPS proxy, and
 * over HTTP/2 with Python h2; a target that resets breaks the tunnel with CONNECT_ERROR.
 */
@Timeout(120)
class ProxyTunnelHalfCloseTest {

    private static final String GREETING = "hello from the origin\n";

    private static ProxyServers proxy;
    private static ProxyServers tlsProxy;
    /**
     * An origin that sends {@link #GREETING}, shuts its output down, then reads to the client's end and
     * records what arrived (or {@code "failed: ..."}).
     */
    private static ServerSocket greetingOrigin;
    private static final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    /** An origin that resets every connection it accepts, once the proxy's tunnel to it is open. */
    private static ServerSocket resettingOrigin;

    @BeforeAll
    static void start() throws IOException {
        greetingOrigin = serve(ProxyTunnelHalfCloseTest::greetThenRecord);
        resettingOrigin = serve(s -> {
            try {
                // reset once the tunnel is up (the proxy has answered 200), not while the proxy still connects
                Await.until("the tunnel to the resetting origin to open", () -> proxy.stats().tunnelsActive() > 0);
                s.setSoLinger(true, 0);
                s.close();
            } catch (IOException ignored) {
                // the test fails on what its client saw
            }
        });
        proxy = ProxyServers.start(ProxyServers.loopbackAllowed().build());
        tlsProxy = ProxyServers.startTls(ProxyServers.loopbackAllowed().build());
    }

    @AfterAll
    static void stop() throws IOException {
        proxy.close();
        tlsProxy.close();
        greetingOrigin.close();
        resettingOrigin.close();
    }

    private interface Peer {
        void serve(Socket s);
    }

    private static ServerSocket serve(Peer peer) throws IOException {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    Thread.ofVirtual().start(() -> peer.serve(s));
                } catch (IOException e) {
                    return;
                }
            }
        });
        return server;
    }

    private static void greetThenRecord(Socket s) {
        try (s) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(GREETING.getBytes(StandardCharsets.US_ASCII));
            s.shutdownOutput();
            received.add(new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII));
        } catch (IOException e) {
            received.add("failed: " + e);
        }
    }

    private static String originReceived() throws InterruptedException {
        String r = received.poll(20, TimeUnit.SECONDS);
        assertTrue(r != null, "the origin recorded nothing");
        return r;
    }

    private static String greetingTarget() {
        return "127.0.0.1:" + greetingOrigin.getLocalPort();
    }

    @Test
    void rawClientReadsTheOriginsEndThenStillSends() throws Exception {
        received.clear();
        try (Socket client = ProxyTunnelTest.connectThrough(proxy.port(), greetingOrigin.getLocalPort())) {
            assertArrayEquals(GREETING.getBytes(StandardCharsets.US_ASCII), client.getInputStream().readAllBytes(),
                    "the origin's bytes, then the end of the stream");
            assertFalse(client.isClosed());
            client.getOutputStream().write("sent after the origin's FIN".getBytes(StandardCharsets.US_ASCII));
            client.shutdownOutput();
            assertEquals("sent after the origin's FIN", originReceived());
            assertEquals(-1, client.getInputStream().read(), "the proxy closes once both sides ended");
        }
        var s = proxy.awaitStats(p -> p.tunnelsActive() == 0);
        assertEquals(0, s.tunnelsActive(), s::toString);
    }

    @Test
    void tls13ClientGetsCloseNotifyThenStillSends() throws Exception {
        Map<String, Object> r = runOverTls("1.3", "payload over TLS 1.3");
        assertEquals("TLSv1.3", r.get("tls"), r::toString);
        assertEquals("payload over TLS 1.3", originReceived());
    }

    /**
     * TLS 1.2 has no half-close (RFC 5246 §7.2.1: the peer answers close_notify with its own); OpenSSL lets
     * the client send before it does, and the proxy still reads and forwards that.
     */
    @Test
    void tls12ClientGetsCloseNotifyThenStillSends() throws Exception {
        Map<String, Object> r = runOverTls("1.2", "payload over TLS 1.2");
        assertEquals("TLSv1.2", r.get("tls"), r::toString);
        assertEquals("payload over TLS 1.2", originReceived());
    }

    private static Map<String, Object> runOverTls(String version, String payload) throws Exception {
        received.clear();
        Map<String, Object> r = runScript("origin_first_close.py", "127.0.0.1", Integer.toString(tlsProxy.port()),
                greetingTarget(), payload, TestCertificates.get().caPem().toString(), version);
        assertTrue(r.get("status").toString().startsWith("HTTP/1.1 200"), r::toString);
        assertEquals(GREETING, r.get("data"), r::toString);
        assertEquals(Boolean.TRUE, r.get("sent"), r::toString);
        var s = tlsProxy.awaitStats(p -> p.tunnelsActive() == 0);
        assertEquals(0, s.tunnelsActive(), s::toString);
        return r;
    }

    @Test
    void http2TunnelEndsWithEndStreamEachWayAndNoReset() throws Exception {
        received.clear();
        long resets = proxy.http2Stats().streamsReset();
        Map<String, Object> r = runScript("h2_connect.py", "127.0.0.1", Integer.toString(proxy.port()),
                greetingTarget(), "sent after END_STREAM", "after-end");
        assertEquals("200", r.get("status"), r::toString);
        assertEquals(GREETING, r.get("data"), r::toString);
        assertEquals(Boolean.TRUE, r.get("ended"), r::toString);
        assertEquals(Boolean.TRUE, r.get("sent"), r::toString);
        assertEquals(Boolean.TRUE, r.get("pong"), r::toString);
        assertEquals(List.of(), r.get("resets"), r::toString);
        assertNull(r.get("goaway"), r::toString);
        assertEquals("sent after END_STREAM", originReceived());
        var s = proxy.awaitStats(p -> p.tunnelsActive() == 0);
        assertEquals(0, s.tunnelsActive(), s::toString);
        assertEquals(resets, proxy.http2Stats().streamsReset(), "no RST_STREAM sent or received");
    }

    @Test
    void http2TargetResetIsConnectError() {
        long resets = proxy.http2Stats().streamsReset();
        Map<String, Object> r = runScript("h2_connect.py", "127.0.0.1", Integer.toString(proxy.port()),
                "127.0.0.1:" + resettingOrigin.getLocalPort(), "never sent", "after-end");
        assertEquals("200", r.get("status"), r::toString);
        assertEquals(Boolean.FALSE, r.get("ended"), r::toString);
        assertEquals(List.of(0xaL), r.get("resets"), () -> "one RST_STREAM CONNECT_ERROR: " + r);
        assertNull(r.get("goaway"), r::toString);
        // once the tunnel is over, nothing more can be reset: the proxy sent exactly that one
        Await.until("the tunnel to end and its reset to be counted", () -> proxy.stats().tunnelsActive() == 0
                && proxy.http2Stats().streamsReset() > resets);
        assertEquals(resets + 1, proxy.http2Stats().streamsReset(), "RST_STREAM frames sent or received");
    }

    @Test
    void idleWatchEndsAHalfClosedTunnel() throws Exception {
        try (ProxyServers quick = ProxyServers.start(ProxyServers.loopbackAllowed()
                .idleTimeout(Duration.ofMillis(400)).build())) {
            received.clear();
            try (Socket client = ProxyTunnelTest.connectThrough(quick.port(), greetingOrigin.getLocalPort())) {
                assertArrayEquals(GREETING.getBytes(StandardCharsets.US_ASCII), client.getInputStream().readAllBytes());
                // The client sends nothing more: the idle watch ends the tunnel and the target hears of it.
                String atOrigin = originReceived();
                assertTrue(atOrigin.isEmpty() || atOrigin.startsWith("failed"), atOrigin);
                var s = quick.awaitStats(p -> p.tunnelsActive() == 0 && p.tunnelsOpened() == 1);
                assertEquals(0, s.tunnelsActive(), s::toString);
                // the client connection was closed: once the proxy's reset is back, a write fails
                Await.until("a write to the closed client connection to fail", () -> {
                    try {
                        client.getOutputStream().write(new byte[1024]);
                        return false;
                    } catch (IOException closed) {
                        return true;
                    }
                });
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> runScript(String script, String... args) {
        ExternalTools.requirePythonModule("h2");
        List<String> cmd = new ArrayList<>(List.of(ExternalTools.require("python3").toString(),
                ProxyServers.script(script).toString()));
        cmd.addAll(List.of(args));
        ExternalTools.Result r = ExternalTools.run(cmd, Duration.ofSeconds(60));
        assertEquals(0, r.exit(), r::describe);
        return (Map<String, Object>) MiniJson.parse(r.stdout().strip());
    }
}
