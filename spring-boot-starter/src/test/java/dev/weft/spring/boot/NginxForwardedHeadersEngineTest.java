package dev.weft.spring.boot;

import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ForwardedConfig;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.forwarded.ClientOrigin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real nginx with {@code X-Forwarded-For/-Proto/-Host} in front of a plain engine handler: the handler sees
 * the client's address, the scheme it used with nginx and the host it addressed; with nginx's address left out
 * of the trusted proxies, the same headers change nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NginxForwardedHeadersEngineTest {

    private HttpServer trusting;
    private HttpServer distrusting;
    private ForwardingNginx nginx;
    private ForwardingNginx nginxToDistrusting;

    @BeforeAll
    void start() throws Exception {
        trusting = server("internal");
        distrusting = server("10.0.0.0/8");
        nginx = ForwardingNginx.start(trusting.getAddress().getPort());
        nginxToDistrusting = ForwardingNginx.start(distrusting.getAddress().getPort());
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {nginx, nginxToDistrusting}) {
            if (c != null) {
                c.close();
            }
        }
        for (HttpServer s : new HttpServer[] {trusting, distrusting}) {
            if (s != null) {
                s.stop(0);
            }
        }
    }

    @Test
    void theHandlerSeesTheClientBehindNginxAndTheSchemeItUsed() throws Exception {
        assertThat(nginx.get("/origin", false)).isEqualTo("127.0.0.2 http 127.0.0.1:" + nginx.port());
        assertThat(nginx.get("/origin", true)).isEqualTo("127.0.0.2 https 127.0.0.1:" + nginx.tlsPort());
    }

    @Test
    void headersFromAPeerThatIsNotTrustedChangeNothing() throws Exception {
        assertThat(nginxToDistrusting.get("/origin", true)).isEqualTo("127.0.0.1 http null");
    }

    private static HttpServer server(String trusted) throws Exception {
        ServerConfig config = ServerConfig.builder()
                .forwarded(ForwardedConfig.builder().enabled(true).trustedProxies(trusted).build()).build();
        HttpServer server = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, config);
        server.createContext("/origin", exchange -> {
            ClientOrigin origin = Weft.origin(exchange);
            byte[] body = (exchange.getRemoteAddress().getHostString() + " " + origin.scheme() + " "
                    + origin.authority()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return server;
    }
}
