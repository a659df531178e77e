package dev.weft.spring.boot;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.config.Http2Config;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.ssl.DefaultSslBundleRegistry;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.jks.JksSslStoreBundle;
import org.springframework.boot.ssl.jks.JksSslStoreDetails;
import org.springframework.boot.web.server.Http2;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServer;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import reactor.core.publisher.Mono;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Which protocols a {@link WeftReactiveWebServerFactory} server speaks for each HTTP/2 setting. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftReactiveWebServerFactoryHttp2Test {

    /** Answers with the protocol of the request as the engine saw it. */
    private final HttpHandler protocol = (request, response) -> {
        HttpExchange exchange = ServerHttpRequestDecorator.getNativeRequest(request);
        response.setStatusCode(HttpStatus.OK);
        return response.writeWith(Mono.just(response.bufferFactory()
                .wrap(exchange.getProtocol().getBytes(StandardCharsets.US_ASCII))));
    };

    private WebServer webServer;

    @AfterEach
    void destroy() {
        if (webServer != null) {
            webServer.destroy();
        }
    }

    @Test
    void tlsWithoutHttp2EnabledNegotiatesHttp11() throws Exception {
        WeftReactiveWebServerFactory factory = tlsFactory();

        int port = start(factory);

        try (HttpClient client = h2Client()) {
            HttpResponse<String> response = client.send(request("https", port), HttpResponse.BodyHandlers.ofString());
            assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
            assertThat(response.body()).isEqualTo("HTTP/1.1");
        }
    }

    @Test
    void tlsWithHttp2EnabledNegotiatesH2EvenWithH2cOff() throws Exception {
        WeftReactiveWebServerFactory factory = tlsFactory();
        factory.setHttp2(enabled());
        factory.setHttp2Settings(Http2Config.builder().h2cEnabled(false).build());

        int port = start(factory);

        try (HttpClient client = h2Client()) {
            HttpResponse<String> response = client.send(request("https", port), HttpResponse.BodyHandlers.ofString());
            assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(response.body()).isEqualTo("HTTP/2.0");
        }
    }

    @Test
    void cleartextWithoutHttp2EnabledRefusesPriorKnowledge() throws Exception {
        int port = start(new WeftReactiveWebServerFactory(0));

        assertNoH2c(port);
    }

    @Test
    void cleartextWithH2cOffRefusesPriorKnowledge() throws Exception {
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory(0);
        factory.setHttp2(enabled());
        factory.setHttp2Settings(Http2Config.builder().h2cEnabled(false).build());

        assertNoH2c(start(factory));
    }

    @Test
    void cleartextWithHttp2EnabledAcceptsPriorKnowledge() throws Exception {
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory(0);
        factory.setHttp2(enabled());

        int port = start(factory);

        assertThat(Curl.run("--http2-prior-knowledge", "-w", "\n%{http_version}",
                "http://127.0.0.1:" + port + "/").text()).isEqualTo("HTTP/2.0\n2");
    }

    /** Prior knowledge gets no HTTP/2 answer, while HTTP/1.1 on the same port is served. */
    private static void assertNoH2c(int port) throws Exception {
        String url = "http://127.0.0.1:" + port + "/";
        Curl.Result h2c = Curl.run("--http2-prior-knowledge", "-o", "/dev/null", "-w", "%{http_version}", url);
        assertThat(h2c.text()).as(h2c.stderr()).isNotEqualTo("2");
        assertThat(Curl.ok("--http1.1", url)).asString().isEqualTo("HTTP/1.1");
    }

    private int start(WeftReactiveWebServerFactory factory) {
        webServer = factory.getWebServer(protocol);
        webServer.start();
        return webServer.getPort();
    }

    private static Http2 enabled() {
        Http2 http2 = new Http2();
        http2.setEnabled(true);
        return http2;
    }

    private static WeftReactiveWebServerFactory tlsFactory() {
        TestCertificates certificates = TestCertificates.shared();
        JksSslStoreDetails keyStore = new JksSslStoreDetails("PKCS12", null,
                certificates.serverKeyStore.toUri().toString(), TestCertificates.PASSWORD);
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory(0);
        factory.setSsl(Ssl.forBundle("weft"));
        factory.setSslBundles(new DefaultSslBundleRegistry("weft",
                SslBundle.of(new JksSslStoreBundle(keyStore, null))));
        return factory;
    }

    private static HttpClient h2Client() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(5))
                .sslContext(TestCertificates.shared().clientContext(false))
                .build();
    }

    private static HttpRequest request(String scheme, int port) {
        return HttpRequest.newBuilder(URI.create(scheme + "://localhost:" + port + "/"))
                .timeout(Duration.ofSeconds(30))
                .build();
    }
}
