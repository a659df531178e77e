package dev.weft.spring.boot;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
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
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

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
        assertThat(serverCertificateSubject(server.getPort())).isEqualTo("CN=first");

        bundles.updateBundle("weft", bundle(second, null));

        assertThat(serverCertificateSubject(server.getPort())).isEqualTo("CN=second");
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
    void serverNameBundlesAreRejectedClearly() {
        Ssl ssl = Ssl.forBundle("weft");
        ssl.setServerNameBundles(List.of(new Ssl.ServerNameSslBundle("example.org", "other")));
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory(0);
        factory.setSsl(ssl);

        assertThatIllegalStateException().isThrownBy(() -> factory.getWebServer(whoami))
                .withMessageContaining("server.ssl.server-name-bundles");
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

    /** The subject of the certificate the server presents to a new connection. */
    private static String serverCertificateSubject(int port) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] { new AcceptingTrustManager() }, null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setSoTimeout(5000);
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0])
                    .getSubjectX500Principal().getName();
        }
    }

    /** Trusts any server: these tests only look at which certificate is presented. */
    private static final class AcceptingTrustManager implements X509TrustManager {

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
