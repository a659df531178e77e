package dev.weft.spring.boot;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.ssl.DefaultSslBundleRegistry;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.jks.JksSslStoreBundle;
import org.springframework.boot.ssl.jks.JksSslStoreDetails;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServer;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.SslInfo;
import reactor.core.publisher.Mono;

import javax.net.ssl.SSLContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** TLS set up by {@link WeftReactiveWebServerFactory} from Spring Boot's {@link Ssl} and SSL bundles. */
@Timeout(60)
class WeftReactiveWebServerFactorySslTest {

    /** Answers with the subject of the client certificate, or "anonymous". */
    private final HttpHandler whoami = (request, response) -> {
        SslInfo info = request.getSslInfo();
        X509Certificate[] peer = info != null ? info.getPeerCertificates() : null;
        String who = peer != null && peer.length > 0 ? peer[0].getSubjectX500Principal().getName() : "anonymous";
        response.setStatusCode(HttpStatus.OK);
        return response.writeWith(Mono.just(response.bufferFactory().wrap(who.getBytes(StandardCharsets.UTF_8))));
    };

    private WebServer webServer;

    @AfterEach
    void destroy() {
        if (webServer != null) {
            webServer.destroy();
        }
    }

    @Test
    void reloadedSslBundleServesNewConnections() throws Exception {
        Path first = TestCertificates.serverKeyStore("CN=first");
        Path second = TestCertificates.serverKeyStore("CN=second");
        DefaultSslBundleRegistry bundles = new DefaultSslBundleRegistry("weft", bundle(first, null));
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory(0);
        factory.setSsl(Ssl.forBundle("weft"));
        factory.setSslBundles(bundles);
        WeftWebServer server = start(factory);
        assertThat(server.isSecure()).isTrue();
        assertThat(SniBundleFiles.presentedName(server.getPort(), null)).isEqualTo("first");

        bundles.updateBundle("weft", bundle(second, null));

        assertThat(SniBundleFiles.presentedName(server.getPort(), null)).isEqualTo("second");
    }

    @Test
    void wantedClientAuthAcceptsClientsWithAndWithoutCertificates() throws Exception {
        TestCertificates certificates = TestCertificates.shared();
        Ssl ssl = Ssl.forBundle("weft");
        ssl.setClientAuth(Ssl.ClientAuth.WANT);
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory(0);
        factory.setSsl(ssl);
        factory.setSslBundles(new DefaultSslBundleRegistry("weft",
                bundle(certificates.serverKeyStore, certificates.serverTrustStore)));
        WeftWebServer server = start(factory);

        assertThat(whoami(certificates.clientContext(true), server.getPort()))
                .isEqualTo(TestCertificates.CLIENT_SUBJECT);
        assertThat(whoami(certificates.clientContext(false), server.getPort())).isEqualTo("anonymous");
    }

    @Test
    void serverNameBundlesServeEachNameItsCertificateAndFollowTheReloadsOfEachBundle(@TempDir Path dir) {
        ServerNameBundleRegistry registry = new ServerNameBundleRegistry(dir);
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory(0);
        factory.setSsl(registry.ssl());
        factory.setSslBundles(registry.bundles());

        registry.assertEachNameGetsItsCertificateAcrossReloads(start(factory).getPort());
    }

    private WeftWebServer start(WeftReactiveWebServerFactory factory) {
        WeftWebServer server = (WeftWebServer) factory.getWebServer(whoami);
        webServer = server;
        server.start();
        return server;
    }

    private static SslBundle bundle(Path keyStore, Path trustStore) {
        return SslBundle.of(new JksSslStoreBundle(details(keyStore), trustStore != null ? details(trustStore) : null));
    }

    private static JksSslStoreDetails details(Path store) {
        return new JksSslStoreDetails("PKCS12", null, store.toUri().toString(), TestCertificates.PASSWORD);
    }

    private static String whoami(SSLContext clientContext, int port) throws Exception {
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .sslContext(clientContext)
                .build();
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/"))
                        .timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }
}
