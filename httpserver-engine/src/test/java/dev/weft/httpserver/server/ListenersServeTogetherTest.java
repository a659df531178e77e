package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.Listener;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.TestCertificates;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import static dev.weft.httpserver.testing.TestServer.respond;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A server with a cleartext and a TLS listener serves the same contexts on both, each exchange as its listener is. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ListenersServeTogetherTest {

    private static final InetSocketAddress ANY_PORT = new InetSocketAddress("127.0.0.1", 0);

    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** Answers with what the exchange says of its connection: TLS or not, the local port, the protocol. */
    private void start(List<Listener> listeners) throws Exception {
        server = Weft.createServer(ServerConfig.defaults(), listeners);
        server.createContext("/", ex -> respond(ex, 200, (ex instanceof HttpsExchange ? "https" : "http") + " "
                + ex.getLocalAddress().getPort() + " " + ex.getProtocol()));
        server.start();
    }

    private static HttpsConfigurator tls() {
        return new HttpsConfigurator(TestCertificates.get().serverContext());
    }

    private static int port(int listener, StatsSnapshot s) {
        return s.listeners().get(listener).address().getPort();
    }

    @Test
    void curlReachesTheHttpAndTheHttpsListenerWithHttp11AndHttp2() throws Exception {
        start(List.of(Listener.http(ANY_PORT), Listener.https(ANY_PORT, tls())));
        StatsSnapshot bound = Weft.stats(server);
        int http = port(0, bound);
        int https = port(1, bound);
        assertEquals(http, server.getAddress().getPort(), "getAddress() is the first listener");

        assertEquals("http " + http + " HTTP/1.1", curl("http://127.0.0.1:" + http + "/"));
        assertEquals("http " + http + " HTTP/2.0", curl("--http2-prior-knowledge", "http://127.0.0.1:" + http + "/"));
        assertEquals("https " + https + " HTTP/1.1", curl("-k", "--http1.1", "https://127.0.0.1:" + https + "/"));
        assertEquals("https " + https + " HTTP/2.0", curl("-k", "--http2", "https://127.0.0.1:" + https + "/"));

        StatsSnapshot s = Weft.stats(server);
        assertEquals("http", s.listeners().get(0).scheme());
        assertEquals("https", s.listeners().get(1).scheme());
        assertEquals(2, s.listeners().get(0).requests());
        assertEquals(2, s.listeners().get(1).requests());
        assertEquals(2, s.listeners().get(0).connectionsAccepted());
        assertEquals(2, s.listeners().get(1).connectionsAccepted());
        assertEquals(4, s.requests());
    }

    @Test
    void theJdkClientReachesBothListeners() throws Exception {
        start(List.of(Listener.https(ANY_PORT, tls()), Listener.http(ANY_PORT)));
        StatsSnapshot bound = Weft.stats(server);
        HttpClient client = HttpClient.newBuilder().sslContext(TestCertificates.get().clientContext())
                .connectTimeout(Duration.ofSeconds(10)).build();
        for (int i = 0; i < 2; i++) {
            String scheme = i == 0 ? "https" : "http";
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(
                    URI.create(scheme + "://localhost:" + port(i, bound) + "/")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            assertTrue(r.body().startsWith(scheme + " " + port(i, bound) + " "), r.body());
        }
    }

    @Test
    void aListenerMayLeaveHttp2Out() throws Exception {
        start(List.of(Listener.http(ANY_PORT).withHttp2(false), Listener.https(ANY_PORT, tls()).withHttp2(false)));
        StatsSnapshot bound = Weft.stats(server);
        assertEquals("https " + port(1, bound) + " HTTP/1.1",
                curl("-k", "--http2", "https://127.0.0.1:" + port(1, bound) + "/"), "h2 not offered by ALPN");
        assertEquals(0, Weft.stats(server).http2().connections());
    }

    @Test
    void aListenerAddedToAPlainServerServesTls() throws Exception {
        server = HttpServer.create(ANY_PORT, 0);
        Weft.addListener(server, Listener.https(ANY_PORT, tls()));
        server.createContext("/", ex -> respond(ex, 200, ex instanceof HttpsExchange h
                ? h.getSSLSession().getProtocol() : "cleartext"));
        server.start();
        StatsSnapshot bound = Weft.stats(server);
        assertTrue(curl("-k", "https://127.0.0.1:" + port(1, bound) + "/").startsWith("TLS"));
        assertEquals("cleartext", curl("http://127.0.0.1:" + port(0, bound) + "/"));
    }

    @Test
    void theStatsPageCountsEachListener() throws Exception {
        server = Weft.createServer(ServerConfig.builder().statsPath("/__stats").build(),
                List.of(Listener.http(ANY_PORT), Listener.https(ANY_PORT, tls())));
        server.start();
        StatsSnapshot bound = Weft.stats(server);
        String https = "https://127.0.0.1:" + port(1, bound);
        curl("-k", https + "/__stats");
        String text = curl("http://127.0.0.1:" + port(0, bound) + "/__stats");
        assertTrue(text.contains("listener_requests{listener=\"" + https + "\"} 1\n"), text);

        Object json = dev.weft.httpserver.testing.MiniJson.parse(
                curl("http://127.0.0.1:" + port(0, bound) + "/__stats?format=json"));
        List<?> listeners = (List<?>) ((java.util.Map<?, ?>) json).get("listeners");
        assertEquals(2, listeners.size());
        java.util.Map<?, ?> second = (java.util.Map<?, ?>) listeners.get(1);
        assertEquals(https, second.get("name"));
        assertEquals(1L, ((Number) second.get("connections_accepted")).longValue());
    }

    private static String curl(String... args) {
        List<String> cmd = new java.util.ArrayList<>(List.of(ExternalTools.require("curl").toString(), "-sS",
                "--max-time", "20"));
        cmd.addAll(List.of(args));
        ExternalTools.Result r = ExternalTools.run(cmd, Duration.ofSeconds(30));
        assertEquals(0, r.exit(), r::describe);
        return r.stdout();
    }
}
