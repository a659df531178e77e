package dev.weft.httpserver.tls;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.TestCertificates;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.net.ssl.SSLContext;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** HTTPS: per-connection configurator, client certificates, and the TLS handshake timeout. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpsTest {

    private final AtomicInteger configureCalls = new AtomicInteger();
    private final List<InetSocketAddress> configuredClients = new CopyOnWriteArrayList<>();
    private final AtomicBoolean handlerRan = new AtomicBoolean();
    private HttpsServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private int start(ServerConfig config, boolean needClientAuth) throws IOException {
        SSLContext ctx = TestCertificates.get().serverContext();
        server = Weft.createHttpsServer(new InetSocketAddress("127.0.0.1", 0), 0, config);
        server.setHttpsConfigurator(new HttpsConfigurator(ctx) {
            @Override
            public void configure(HttpsParameters params) {
                configureCalls.incrementAndGet();
                configuredClients.add(params.getClientAddress());
                if (needClientAuth) {
                    params.setNeedClientAuth(true);
                } else {
                    super.configure(params);
                }
            }
        });
        server.createContext("/", HttpsTest::describe);
        server.start();
        return server.getAddress().getPort();
    }

    /** Answers "https=<is HttpsExchange> peer=<client certificate subject or none>". */
    private static void describe(HttpExchange ex) throws IOException {
        String peer;
        boolean https = ex instanceof HttpsExchange;
        try {
            Certificate[] chain = ((HttpsExchange) ex).getSSLSession().getPeerCertificates();
            peer = ((X509Certificate) chain[0]).getSubjectX500Principal().getName();
        } catch (javax.net.ssl.SSLPeerUnverifiedException | ClassCastException e) {
            peer = "none";
        }
        byte[] body = ("https=" + https + " peer=" + peer).getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(200, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    private static HttpClient client(SSLContext ctx) {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(ctx)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    private static HttpResponse<String> get(HttpClient client, int port) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/who"))
                .timeout(Duration.ofSeconds(5)).build();
        return client.send(req, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void configuratorIsCalledOncePerConnection() throws Exception {
        int port = start(ServerConfig.defaults(), false);
        try (HttpClient one = client(TestCertificates.get().clientContext());
             HttpClient two = client(TestCertificates.get().clientContext())) {
            HttpResponse<String> r = get(one, port);
            assertEquals(200, r.statusCode());
            assertEquals("https=true peer=none", r.body());
            assertEquals(200, get(one, port).statusCode()); // same connection, kept alive
            assertEquals(200, get(two, port).statusCode());
        }
        assertEquals(2, configureCalls.get());
        for (InetSocketAddress a : configuredClients) {
            assertTrue(a != null && a.getAddress().isLoopbackAddress() && a.getPort() > 0, "client address " + a);
        }
    }

    @Test
    void clientCertificateIsVisibleToTheHandler() throws Exception {
        int port = start(ServerConfig.defaults(), true);
        try (HttpClient c = client(TestCertificates.get().clientContextWithCertificate())) {
            HttpResponse<String> r = get(c, port);
            assertEquals(200, r.statusCode());
            assertEquals("https=true peer=" + TestCertificates.CLIENT_SUBJECT, r.body());
        }
    }

    @Test
    void handshakeWithoutRequiredClientCertificateFails() throws Exception {
        int port = start(ServerConfig.defaults(), true);
        server.createContext("/who", ex -> {
            handlerRan.set(true);
            describe(ex);
        });
        try (HttpClient c = client(TestCertificates.get().clientContext())) {
            assertThrows(IOException.class, () -> get(c, port));
        }
        assertFalse(handlerRan.get(), "handler ran for a client without certificate");
    }

    @Test
    void curlWithClientCertificateIsIdentified() throws Exception {
        org.junit.jupiter.api.Assertions.assertTrue(new File("/usr/bin/curl").canExecute(), "curl is required (scripts/install-test-tools.sh installs it)");
        TestCertificates certs = TestCertificates.get();
        Path clientPem = certs.clientPem();
        int port = start(ServerConfig.defaults(), true);

        Curl ok = curl(port, "--cacert", certs.caPem().toString(), "--cert", clientPem.toString());
        assertEquals(0, ok.exit, ok.output);
        assertEquals("https=true peer=" + TestCertificates.CLIENT_SUBJECT, ok.output);

        Curl noCert = curl(port, "--cacert", certs.caPem().toString());
        assertTrue(noCert.exit != 0, "curl without client certificate succeeded: " + noCert.output);
    }

    private record Curl(int exit, String output) {
    }

    private static Curl curl(int port, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/curl", "-sS", "--http1.1", "--max-time", "5"));
        cmd.addAll(List.of(args));
        cmd.add("https://127.0.0.1:" + port + "/who");
        Path out = Files.createTempFile("weft-curl", ".out");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("curl hung: " + cmd);
            }
            return new Curl(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static Socket connectSilently(int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        return s;
    }

    @Test
    void stalledHandshakeIsClosedAfterTheHandshakeTimeout() throws Exception {
        // A real client's handshakes must fit in the timeout too: a first one warms the JVM up and leaves a
        // session the later one resumes.
        int port = start(ServerConfig.builder().tlsHandshakeTimeout(Duration.ofSeconds(1)).build(), false);
        SSLContext clientContext = TestCertificates.get().clientContext();
        try (HttpClient c = client(clientContext)) {
            assertEquals(200, get(c, port).statusCode());
        }
        // the configured timeout, not the default one: closed before that would have run out
        long defaultMillis = ServerConfig.defaults().tlsHandshakeTimeout().toMillis();
        try (Socket silent = connectSilently(port)) {
            long connected = System.nanoTime();
            silent.setSoTimeout(Math.toIntExact(defaultMillis + Await.DEFAULT_LIMIT.toMillis()));
            try {
                while (silent.getInputStream().read() >= 0) {
                    // an alert may precede the close
                }
            } catch (SocketException reset) {
                // a reset is a close too
            }
            long closedAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - connected);
            assertTrue(closedAfter >= 900 && closedAfter < defaultMillis, "closed after " + closedAfter + " ms");
        }
        // the server still accepts and serves a new connection afterwards
        try (HttpClient c = client(clientContext)) {
            assertEquals(200, get(c, port).statusCode());
        }
    }

    @Test
    void stalledHandshakesDoNotDelayOtherClients() throws Exception {
        int port = start(ServerConfig.defaults(), false); // 10 s handshake timeout
        try (Socket silent1 = connectSilently(port); Socket silent2 = connectSilently(port);
             HttpClient other = client(TestCertificates.get().clientContext())) {
            assertEquals(200, get(other, port).statusCode());
            // served while both handshakes still wait: not after their timeouts
            for (Socket silent : List.of(silent1, silent2)) {
                silent.setSoTimeout(1);
                assertThrows(SocketTimeoutException.class, () -> silent.getInputStream().read(),
                        "a silent connection was closed long before its handshake timeout");
            }
        }
    }

    @Test
    void connectionOverTheLimitIsClosedWithoutAnAnswerOnTls() throws Exception {
        int port = start(ServerConfig.builder().maxConnections(1).build(), false);
        try (HttpClient holder = client(TestCertificates.get().clientContext())) {
            assertEquals(200, get(holder, port).statusCode()); // its connection stays open in the pool
            try (Socket over = connectSilently(port)) {
                over.setSoTimeout(3000);
                assertEquals(-1, over.getInputStream().read(), "over-limit TLS connection got bytes instead of a close");
            }
            assertEquals(1, Weft.stats(server).connectionsRejected());
            assertEquals(200, get(holder, port).statusCode());
        }
    }
}
