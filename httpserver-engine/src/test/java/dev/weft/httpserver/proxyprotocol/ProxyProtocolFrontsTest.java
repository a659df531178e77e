package dev.weft.httpserver.proxyprotocol;

import dev.weft.httpserver.config.ForwardedConfig;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.forwarded.OriginReport;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.TestCertificates;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real proxies sending the PROXY protocol to a server that requires it: HAProxy with {@code send-proxy-v2}, and
 * with {@code send-proxy-v2-ssl-cn} where it terminates the client's TLS (with a client certificate), and nginx's
 * stream module with {@code proxy_protocol on} (v1). The client connects from {@code 127.0.0.2}, the proxies from
 * {@code 127.0.0.1}: the handler sees the client.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ProxyProtocolFrontsTest {

    private static final String CLIENT = "127.0.0.2";

    private TestServer weft;
    private FrontProxy haproxy;
    private FrontProxy nginx;

    @BeforeAll
    void start() throws IOException {
        ServerConfig config = ServerConfig.builder()
                .forwarded(ForwardedConfig.builder().proxyProtocol(true).build()).build();
        weft = TestServer.builder().config(config).handle("/", OriginReport.handler()).start();
        Path pem = haproxyPem();
        Path ca = TestCertificates.get().caPem();
        haproxy = FrontProxy.haproxy(2, c -> """
                defaults
                    mode tcp
                    timeout connect 5s
                    timeout client 30s
                    timeout server 30s
                frontend plain
                    bind 127.0.0.1:%1$d
                    default_backend weft
                frontend tls
                    bind 127.0.0.1:%2$d ssl crt %3$s ca-file %4$s verify optional
                    default_backend weft_ssl
                backend weft
                    server weft 127.0.0.1:%5$d send-proxy-v2
                backend weft_ssl
                    server weft 127.0.0.1:%5$d send-proxy-v2-ssl-cn
                """.formatted(c.ports()[0], c.ports()[1], pem, ca, weft.port()));
        nginx = FrontProxy.nginxStream(1, c -> """
                server {
                    listen 127.0.0.1:%d;
                    proxy_pass 127.0.0.1:%d;
                    proxy_protocol on;
                }
                """.formatted(c.ports()[0], weft.port()));
    }

    @AfterAll
    void stop() throws IOException {
        for (AutoCloseable c : new AutoCloseable[] {nginx, haproxy, weft}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                throw new IOException(e);
            }
        }
    }

    @Test
    void haproxySendProxyV2GivesTheClientsAddress() throws IOException {
        try (Socket s = fromClient(haproxy.port(0))) {
            String report = exchange(s);
            assertTrue(report.contains("remote=" + CLIENT + ":" + s.getLocalPort() + "\n"), report);
            assertTrue(report.contains("local=" + haproxy.port(0) + "\n"), report);
            assertTrue(report.contains("proxy=v2\ntls=null\n"), report);
            assertTrue(report.contains("scheme=http\n"), report);
        }
    }

    @Test
    void haproxySendProxyV2SslGivesTheClientsTlsFacts() throws IOException {
        Socket raw = fromClient(haproxy.port(1));
        try (SSLSocket tls = (SSLSocket) TestCertificates.get().clientContextWithCertificate().getSocketFactory()
                .createSocket(raw, "localhost", haproxy.port(1), true)) {
            String report = exchange(tls);
            assertTrue(report.contains("remote=" + CLIENT + ":" + raw.getLocalPort() + "\n"), report);
            assertTrue(report.contains("scheme=https\n"), report);
            assertTrue(report.contains("tls=ProxyTls[clientSsl=true, clientCert=true, verified=true, version=TLSv1."),
                    report);
            assertTrue(report.contains("commonName=test-client"), report);
        }
    }

    @Test
    void nginxStreamProxyProtocolGivesTheClientsAddress() throws IOException {
        try (Socket s = fromClient(nginx.port(0))) {
            String report = exchange(s);
            assertTrue(report.contains("remote=" + CLIENT + ":" + s.getLocalPort() + "\n"), report);
            assertTrue(report.contains("proxy=v1\n"), report);
        }
    }

    /** A connection to {@code port} from {@link #CLIENT}. */
    private static Socket fromClient(int port) throws IOException {
        Socket s = new Socket();
        s.bind(new InetSocketAddress(InetAddress.getByName(CLIENT), 0));
        s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        s.setSoTimeout(10_000);
        return s;
    }

    private static String exchange(Socket s) throws IOException {
        s.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        String response = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(response.startsWith("HTTP/1.1 200"), response);
        return response;
    }

    /** The test server certificate and key in one PEM file, as HAProxy's {@code crt} takes them. */
    private static Path haproxyPem() {
        TestCertificates certs = TestCertificates.get();
        Path pem = certs.directory().resolve("haproxy.pem");
        ExternalTools.Result r = ExternalTools.run(List.of(ExternalTools.require("openssl").toString(), "pkcs12",
                "-in", certs.directory().resolve("server.p12").toString(), "-passin",
                "pass:" + TestCertificates.PASSWORD, "-nodes", "-out", pem.toString()), Duration.ofSeconds(30));
        assertEquals(0, r.exit(), r::describe);
        return pem;
    }
}
