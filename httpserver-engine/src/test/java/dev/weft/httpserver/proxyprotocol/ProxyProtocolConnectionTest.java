package dev.weft.httpserver.proxyprotocol;

import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ForwardedConfig;
import dev.weft.httpserver.config.Listener;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.forwarded.OriginReport;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.TestCertificates;
import dev.weft.httpserver.testing.TestServer;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static dev.weft.httpserver.proxyprotocol.ProxyHeaders.at;
import static dev.weft.httpserver.proxyprotocol.ProxyHeaders.join;
import static dev.weft.httpserver.proxyprotocol.ProxyHeaders.ssl;
import static dev.weft.httpserver.proxyprotocol.ProxyHeaders.v2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hand-made PROXY headers first on a connection to a server that requires them: HTTP/1.1, h2c and TLS. */
class ProxyProtocolConnectionTest {

    private static final byte[] GET = "GET / HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    @Test
    void v1HeaderGivesTheClientsAddress() throws IOException {
        try (TestServer server = server(Duration.ofSeconds(10))) {
            String report = exchange(server, join(ascii("PROXY TCP4 192.0.2.1 198.51.100.2 56324 443\r\n"), GET));

            assertTrue(report.contains("remote=192.0.2.1:56324\n"), report);
            assertTrue(report.contains("local=443\n"), report);
            assertTrue(report.contains("proxy=v1\n"), report);
        }
    }

    @Test
    void v2HeaderWithoutTlvsAndWithTlsTlvs() throws IOException {
        try (TestServer server = server(Duration.ofSeconds(10))) {
            String plain = exchange(server, join(v2(1, at("2001:db8::1", 4711), at("2001:db8::2", 80), new byte[0]),
                    GET));
            assertTrue(plain.contains("remote=2001:db8:0:0:0:0:0:1:4711\n"), plain);
            assertTrue(plain.contains("scheme=http\n"), plain);

            String tls = exchange(server, join(v2(1, at("192.0.2.1", 1), at("192.0.2.2", 443),
                    ssl(0x01, "TLSv1.3", "TLS_AES_128_GCM_SHA256", null)), GET));
            assertTrue(tls.contains("remote=192.0.2.1:1\n"), tls);
            assertTrue(tls.contains("scheme=https\n"), tls);
            assertTrue(tls.contains("version=TLSv1.3, cipher=TLS_AES_128_GCM_SHA256"), tls);
        }
    }

    @Test
    void localAndUnknownHeadersKeepTheRealPeer() throws IOException {
        try (TestServer server = server(Duration.ofSeconds(10))) {
            assertTrue(exchange(server, join(v2(0, null, null, new byte[0]), GET)).contains("remote=127.0.0.1:"));
            assertTrue(exchange(server, join(ascii("PROXY UNKNOWN\r\n"), GET)).contains("remote=127.0.0.1:"));
        }
    }

    @Test
    void aMalformedHeaderClosesTheConnectionAndTheNextClientIsServed() throws IOException {
        try (TestServer server = server(Duration.ofSeconds(10))) {
            try (RawHttpClient bad = server.connect()) {
                bad.send(join(ascii("PROXY TCP4 192.0.2.1 nowhere 1 2\r\n"), GET));
                assertEquals(0, bad.readUntilClose().length);
            }
            try (RawHttpClient plainHttp = server.connect()) {
                plainHttp.send(GET);
                assertEquals(0, plainHttp.readUntilClose().length);
            }
            server.awaitStats(s -> s.protocolErrors().getOrDefault(ProtocolError.BAD_PROXY_HEADER, 0L) == 2L);

            String report = exchange(server, join(ascii("PROXY TCP4 192.0.2.9 198.51.100.2 1 2\r\n"), GET));
            assertTrue(report.contains("remote=192.0.2.9:1\n"), report);
        }
    }

    @Test
    void aClientThatSendsNothingIsClosedAtTheDeadline() throws IOException {
        try (TestServer server = server(Duration.ofMillis(300));
             RawHttpClient silent = RawHttpClient.connect(server.port(), Duration.ofSeconds(10))) {
            assertTrue(silent.serverClosedWithin(Duration.ofSeconds(5)));
            server.awaitStats(s -> s.protocolErrors().getOrDefault(ProtocolError.BAD_PROXY_HEADER, 0L) == 1L);
        }
    }

    @Test
    void h2cWithPriorKnowledgeAfterTheHeader() throws IOException {
        try (TestServer server = server(Duration.ofSeconds(10));
             Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write(ascii("PROXY TCP4 192.0.2.1 198.51.100.2 5 6\r\n"));
            out.write(ascii("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"));
            out.write(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0}); // empty SETTINGS
            out.flush();
            byte[] frameHead = s.getInputStream().readNBytes(9);
            assertEquals(4, frameHead[3], "the server's SETTINGS frame comes first");
        }
    }

    @Test
    void theHeaderComesBeforeTheTlsHandshake() throws Exception {
        ServerConfig config = config(Duration.ofSeconds(10));
        HttpsServer server = Weft.createHttpsServer(new InetSocketAddress("127.0.0.1", 0), 0, config);
        server.setHttpsConfigurator(new HttpsConfigurator(TestCertificates.get().serverContext()));
        server.createContext("/", OriginReport.handler());
        server.start();
        try (Socket raw = new Socket("127.0.0.1", server.getAddress().getPort())) {
            raw.getOutputStream().write(ascii("PROXY TCP6 2001:db8::7 2001:db8::8 7 443\r\n"));
            SSLSocket tls = (SSLSocket) TestCertificates.get().clientContext().getSocketFactory()
                    .createSocket(raw, "localhost", raw.getPort(), true);
            tls.setSoTimeout(5000);
            tls.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = tls.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(response.contains("remote=2001:db8:0:0:0:0:0:7:7\n"), response);
            assertTrue(response.contains("scheme=https\n"), response);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void oneListenerBehindALoadBalancerRequiresTheHeaderWhileTheOtherServesClientsDirectly() throws IOException {
        HttpServer server = Weft.createServer(ServerConfig.builder().build(), List.of(
                Listener.http(new InetSocketAddress("127.0.0.1", 0)),
                Listener.http(new InetSocketAddress("127.0.0.1", 0)).withProxyProtocol(true)));
        server.createContext("/", OriginReport.handler());
        server.start();
        try {
            List<StatsSnapshot.Listener> listeners = Weft.stats(server).listeners();
            String direct = exchange(listeners.get(0).address().getPort(), GET);
            assertTrue(direct.contains("remote=127.0.0.1:"), direct);
            assertTrue(direct.contains("proxy=null\n"), direct);

            int balanced = listeners.get(1).address().getPort();
            String proxied = exchange(balanced, join(ascii("PROXY TCP4 192.0.2.1 198.51.100.2 56324 443\r\n"), GET));
            assertTrue(proxied.contains("remote=192.0.2.1:56324\n"), proxied);
            try (RawHttpClient withoutHeader = RawHttpClient.connect(balanced, Duration.ofSeconds(5))) {
                withoutHeader.send(GET);
                assertEquals(0, withoutHeader.readUntilClose().length, "no header: closed unanswered");
            }
        } finally {
            server.stop(0);
        }
    }

    private static TestServer server(Duration headerReadTimeout) throws IOException {
        return TestServer.builder().config(config(headerReadTimeout)).handle("/", OriginReport.handler()).start();
    }

    private static ServerConfig config(Duration headerReadTimeout) {
        return ServerConfig.builder().headerReadTimeout(headerReadTimeout)
                .forwarded(ForwardedConfig.builder().proxyProtocol(true).build()).build();
    }

    private static String exchange(TestServer server, byte[] request) throws IOException {
        return exchange(server.port(), request);
    }

    private static String exchange(int port, byte[] request) throws IOException {
        try (RawHttpClient client = RawHttpClient.connect(port, Duration.ofSeconds(10))) {
            RawHttpClient.Response r = client.send(request).readResponse();
            assertEquals(200, r.status());
            return new String(r.body(), StandardCharsets.UTF_8);
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
