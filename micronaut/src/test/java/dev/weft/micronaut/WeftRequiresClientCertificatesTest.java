package dev.weft.micronaut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.httpserver.testing.TestCertificates;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/**
 * {@code micronaut.ssl.client-authentication: need} (with the key store and the trust store given as
 * {@code micronaut.ssl.*}): a client presenting a certificate the trust store's CA signed is served, and the
 * route sees that certificate; a client without one is refused during the TLS handshake.
 */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WeftRequiresClientCertificatesTest implements TestPropertyProvider {

    @Inject
    EmbeddedServer server;

    @Override
    public Map<String, String> getProperties() {
        TestCertificates pki = TestCertificates.get();
        Map<String, String> properties = TlsTestProperties.keyStore("micronaut.ssl");
        properties.put("micronaut.ssl.trust-store.path", "file:" + pki.directory().resolve("truststore.p12"));
        properties.put("micronaut.ssl.trust-store.type", "PKCS12");
        properties.put("micronaut.ssl.trust-store.password", TestCertificates.PASSWORD);
        properties.put("micronaut.ssl.client-authentication", "need");
        return properties;
    }

    private URI peer() {
        return URI.create("https://localhost:" + server.getPort() + "/tls/peer");
    }

    @Test
    void aClientWithACertificateIsServedAndSeenByTheRoute() throws Exception {
        assertThat(server.getScheme()).isEqualTo("https");
        try (HttpClient client = HttpClient.newBuilder()
                .sslContext(TestCertificates.get().clientContextWithCertificate()).build()) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(peer()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo(TestCertificates.CLIENT_SUBJECT);
        }
    }

    @Test
    void curlWithTheClientCertificateIsServed() throws Exception {
        TestCertificates pki = TestCertificates.get();
        Curl curl = Curl.run("--cacert", pki.caPem().toString(), "--cert", pki.clientPem().toString(),
                peer().toString());
        assertThat(curl.output()).isEqualTo(TestCertificates.CLIENT_SUBJECT);
    }

    @Test
    void aClientWithoutACertificateIsRefusedAtTheHandshake() throws Exception {
        try (SSLSocket socket = (SSLSocket) TestCertificates.get().clientContext().getSocketFactory()
                .createSocket("localhost", server.getPort())) {
            socket.setSoTimeout(30_000);
            assertThatThrownBy(() -> {
                socket.startHandshake();
                // with TLS 1.3 the server's verdict on the (absent) certificate comes after the client's Finished
                socket.getInputStream().read();
            }).isInstanceOf(SSLException.class).hasMessageContaining("certificate_required");
        }
    }

    @Test
    void curlWithoutACertificateFails() throws Exception {
        Curl curl = Curl.run("--cacert", TestCertificates.get().caPem().toString(), peer().toString());
        assertThat(curl.exitCode()).isNotZero();
        assertThat(curl.output()).doesNotContain("anonymous");
    }
}
