package dev.weft.spring.boot.autoconfigure;

import dev.weft.spring.boot.TestCertificates;
import dev.weft.spring.boot.WeftWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import javax.net.ssl.SSLParameters;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.io.IOException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * HTTPS from a PKCS12 SSL bundle ({@code server.ssl.bundle}) with required client certificates, and the
 * bundle's protocol option enforced.
 */
@SpringBootTest(classes = WeftTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "server.ssl.bundle=weft",
        "server.ssl.client-auth=need",
        "spring.ssl.bundle.jks.weft.keystore.type=PKCS12",
        "spring.ssl.bundle.jks.weft.keystore.password=" + TestCertificates.PASSWORD,
        "spring.ssl.bundle.jks.weft.truststore.type=PKCS12",
        "spring.ssl.bundle.jks.weft.truststore.password=" + TestCertificates.PASSWORD,
        "spring.ssl.bundle.jks.weft.options.enabled-protocols=TLSv1.3" })
@Timeout(60)
class WeftSslBundleClientAuthTest {

    private static final TestCertificates certificates = TestCertificates.shared();

    @DynamicPropertySource
    static void keyStores(DynamicPropertyRegistry registry) {
        registry.add("spring.ssl.bundle.jks.weft.keystore.location",
                () -> certificates.serverKeyStore.toUri().toString());
        registry.add("spring.ssl.bundle.jks.weft.truststore.location",
                () -> certificates.serverTrustStore.toUri().toString());
    }

    @LocalServerPort
    int port;

    @Autowired
    ReactiveWebServerApplicationContext context;

    @Test
    void clientCertificateReachesTheHandler() throws Exception {
        HttpResponse<String> response = send(client(true, null));

        assertThat(context.getWebServer()).isInstanceOfSatisfying(WeftWebServer.class,
                server -> assertThat(server.isSecure()).isTrue());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(TestCertificates.CLIENT_SUBJECT);
        assertThat(response.sslSession()).hasValueSatisfying(
                session -> assertThat(session.getProtocol()).isEqualTo("TLSv1.3"));
    }

    @Test
    void clientWithoutCertificateIsRejected() {
        HttpClient anonymous = client(false, null);

        assertThatThrownBy(() -> send(anonymous))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(HttpTimeoutException.class);
    }

    @Test
    void protocolsOutsideTheBundleOptionsAreRefused() {
        HttpClient tls12Only = client(true, new String[] { "TLSv1.2" });

        assertThatThrownBy(() -> send(tls12Only))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(HttpTimeoutException.class);
    }

    private HttpClient client(boolean withClientCert, String[] protocols) {
        HttpClient.Builder builder = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .sslContext(certificates.clientContext(withClientCert));
        if (protocols != null) {
            SSLParameters parameters = new SSLParameters();
            parameters.setProtocols(protocols);
            builder.sslParameters(parameters);
        }
        return builder.build();
    }

    private HttpResponse<String> send(HttpClient client) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/whoami"))
                .timeout(Duration.ofSeconds(10))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
