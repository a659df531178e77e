package dev.weft.spring.boot.servlet;

import dev.weft.spring.boot.ServerNameBundleRegistry;
import dev.weft.spring.boot.TestCertificates;
import jakarta.servlet.SessionTrackingMode;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.ssl.DefaultSslBundleRegistry;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.jks.JksSslStoreBundle;
import org.springframework.boot.ssl.jks.JksSslStoreDetails;
import org.springframework.boot.ssl.pem.PemSslStoreBundle;
import org.springframework.boot.ssl.pem.PemSslStoreDetails;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.servlet.Session;
import org.springframework.boot.web.servlet.ServletRegistrationBean;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Spring Boot's servlet factory contract on Weft: TLS from JKS, PKCS12 and PEM key material and from SSL
 * bundles, key aliases, client authentication, the server header over TLS, SSL session tracking and bundle
 * reloads.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftServletWebServerSslTest {

    private static final ServletTls tls = ServletTls.shared();

    private final ServletServers servers = new ServletServers();

    @TempDir
    Path documentRoot;

    @BeforeEach
    void testFile() throws IOException {
        Files.writeString(documentRoot.resolve("test.txt"), "test");
    }

    @AfterEach
    void destroyServers() {
        servers.close();
    }

    @Test
    void aJksKeyStoreOnTheFileSystemServesHttps() throws Exception {
        WebServer server = start(jks(tls.jks.toString()));

        assertThat(https(server, null, null).body()).isEqualTo("test");
    }

    @Test
    void aJksKeyStoreOnTheClassPathServesHttps() throws Exception {
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] { tls.jks.getParent().toUri().toURL() },
                previous)) {
            Thread.currentThread().setContextClassLoader(loader);
            WebServer server = start(jks("classpath:" + tls.jks.getFileName()));
            Thread.currentThread().setContextClassLoader(previous);

            assertThat(https(server, null, null).body()).isEqualTo("test");
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    @Test
    void withSslDisabledThePortSpeaksCleartext() throws Exception {
        Ssl ssl = jks(tls.jks.toString());
        ssl.setEnabled(false);
        WebServer server = start(ssl);

        assertThat(servers.get(server, "/test.txt").body()).isEqualTo("test");
        assertThatExceptionOfType(SSLException.class).isThrownBy(() -> https(server, null, null));
    }

    @Test
    void theRequestSchemeIsHttps() throws Exception {
        WeftServletWebServerFactory factory = factory(jks(tls.jks.toString()));
        WebServer server = servers.start(factory, scheme());

        assertThat(https(server, null, null, "/scheme").body()).isEqualTo("https");
    }

    @Test
    void aKeyAliasChoosesTheCertificate() throws Exception {
        Ssl ssl = jks(tls.jks.toString());
        ssl.setKeyAlias("test-alias");
        WebServer server = start(ssl);
        AtomicReference<X509Certificate> presented = new AtomicReference<>();

        https(server, null, presented);

        assertThat(presented.get().getSubjectX500Principal().getName()).isEqualTo("CN=test-alias");
    }

    @Test
    void aKeyAliasTheStoreLacksFailsClearly() {
        Ssl ssl = jks(tls.jks.toString());
        ssl.setKeyAlias("test-alias-404");

        assertThatException().isThrownBy(() -> start(ssl))
                .satisfies(ex -> assertThat(messages(ex)).contains("Keystore does not contain alias 'test-alias-404'"));
    }

    @Test
    void pkcs12StoresWithClientAuthNeededAcceptAClientWithACertificate() throws Exception {
        Ssl ssl = pkcs12Needing();
        WebServer server = start(ssl);

        assertThat(https(server, tls.pkcs12.clientKeyStore, null).body()).isEqualTo("test");
    }

    @Test
    void neededClientAuthRefusesAClientWithoutACertificate() {
        WebServer server = start(pkcs12Needing());

        assertThatExceptionOfType(IOException.class).isThrownBy(() -> https(server, null, null));
    }

    @Test
    void wantedClientAuthAcceptsClientsWithAndWithoutCertificates() throws Exception {
        Ssl ssl = pkcs12Needing();
        ssl.setClientAuth(Ssl.ClientAuth.WANT);
        ssl.setEnabledProtocols(new String[] { "TLSv1.2" });
        WebServer server = start(ssl);

        assertThat(https(server, tls.pkcs12.clientKeyStore, null).body()).isEqualTo("test");
        assertThat(https(server, null, null).body()).isEqualTo("test");
    }

    @Test
    void pemCertificateKeyAndTrustWithClientAuthNeeded() throws Exception {
        Ssl ssl = new Ssl();
        ssl.setCertificate(tls.serverCertificatePem.toString());
        ssl.setCertificatePrivateKey(tls.serverKeyPem.toString());
        ssl.setTrustCertificate(tls.clientCertificatePem.toString());
        ssl.setClientAuth(Ssl.ClientAuth.NEED);
        WebServer server = start(ssl);

        assertThat(https(server, tls.pkcs12.clientKeyStore, null).body()).isEqualTo("test");
        assertThatExceptionOfType(IOException.class).isThrownBy(() -> https(server, null, null));
    }

    @Test
    void aJksBundleWithClientAuthNeeded() throws Exception {
        Ssl ssl = Ssl.forBundle("test");
        ssl.setClientAuth(Ssl.ClientAuth.NEED);
        WeftServletWebServerFactory factory = factory(ssl);
        factory.setSslBundles(new DefaultSslBundleRegistry("test", SslBundle.of(new JksSslStoreBundle(
                pkcs12(tls.pkcs12.serverKeyStore), pkcs12(tls.pkcs12.serverTrustStore)))));
        WebServer server = servers.start(factory);

        assertThat(https(server, tls.pkcs12.clientKeyStore, null).body()).isEqualTo("test");
    }

    @Test
    void aPemBundleWithClientAuthNeeded() throws Exception {
        Ssl ssl = Ssl.forBundle("test");
        ssl.setClientAuth(Ssl.ClientAuth.NEED);
        WeftServletWebServerFactory factory = factory(ssl);
        factory.setSslBundles(new DefaultSslBundleRegistry("test", SslBundle.of(new PemSslStoreBundle(
                new PemSslStoreDetails(null, tls.serverCertificatePem.toString(), tls.serverKeyPem.toString()),
                PemSslStoreDetails.forCertificate(tls.clientCertificatePem.toString())))));
        WebServer server = servers.start(factory);

        assertThat(https(server, tls.pkcs12.clientKeyStore, null).body()).isEqualTo("test");
    }

    @Test
    void aReloadedBundleServesNewConnections() throws Exception {
        DefaultSslBundleRegistry bundles = new DefaultSslBundleRegistry("test",
                SslBundle.of(new JksSslStoreBundle(pkcs12(TestCertificates.serverKeyStore("CN=1")), null)));
        WeftServletWebServerFactory factory = factory(Ssl.forBundle("test"));
        factory.setSslBundles(bundles);
        WebServer server = servers.start(factory);
        AtomicReference<X509Certificate> presented = new AtomicReference<>();
        https(server, null, presented);
        assertThat(presented.get().getSubjectX500Principal().getName()).isEqualTo("CN=1");

        bundles.updateBundle("test",
                SslBundle.of(new JksSslStoreBundle(pkcs12(TestCertificates.serverKeyStore("CN=2")), null)));

        https(server, null, presented);
        assertThat(presented.get().getSubjectX500Principal().getName()).isEqualTo("CN=2");
    }

    @Test
    void overTlsThereIsNoServerHeaderUnlessOneIsSet() throws Exception {
        WebServer plain = start(jks(tls.jks.toString()));
        WeftServletWebServerFactory named = factory(jks(tls.jks.toString()));
        named.setServerHeader("MyServer");
        WebServer custom = servers.start(named);

        assertThat(https(plain, null, null).headers().firstValue("Server")).isEmpty();
        assertThat(https(custom, null, null).headers().firstValue("Server")).hasValue("MyServer");
    }

    @Test
    void sslSessionTrackingIsTheOnlyTrackingModeWhenAskedFor() {
        WeftServletWebServerFactory factory = factory(jks(tls.jks.toString()));
        factory.getSettings().getSession().setTrackingModes(EnumSet.of(Session.SessionTrackingMode.SSL));
        AtomicReference<Set<SessionTrackingMode>> modes = new AtomicReference<>();

        servers.create(factory, context -> modes.set(context.getEffectiveSessionTrackingModes()));

        assertThat(modes.get()).containsExactly(SessionTrackingMode.SSL);
    }

    @Test
    void serverNameBundlesServeEachNameItsCertificateAndFollowTheReloadsOfEachBundle(@TempDir Path dir) {
        ServerNameBundleRegistry registry = new ServerNameBundleRegistry(dir);
        WeftServletWebServerFactory factory = factory(registry.ssl());
        factory.setSslBundles(registry.bundles());

        registry.assertEachNameGetsItsCertificateAcrossReloads(servers.start(factory).getPort());
    }

    private WebServer start(Ssl ssl) {
        return servers.start(factory(ssl));
    }

    private WeftServletWebServerFactory factory(Ssl ssl) {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.setSsl(ssl);
        factory.setDocumentRoot(documentRoot.toFile());
        factory.setRegisterDefaultServlet(true);
        return factory;
    }

    private static Ssl jks(String location) {
        Ssl ssl = new Ssl();
        ssl.setKeyStore(location);
        ssl.setKeyStoreType("JKS");
        ssl.setKeyStorePassword(ServletTls.PASSWORD);
        ssl.setKeyPassword(ServletTls.PASSWORD);
        return ssl;
    }

    private static Ssl pkcs12Needing() {
        Ssl ssl = new Ssl();
        ssl.setKeyStore(tls.pkcs12.serverKeyStore.toString());
        ssl.setKeyStoreType("pkcs12");
        ssl.setKeyStorePassword(ServletTls.PASSWORD);
        ssl.setTrustStore(tls.pkcs12.serverTrustStore.toString());
        ssl.setTrustStoreType("pkcs12");
        ssl.setTrustStorePassword(ServletTls.PASSWORD);
        ssl.setClientAuth(Ssl.ClientAuth.NEED);
        return ssl;
    }

    private static JksSslStoreDetails pkcs12(Path store) {
        return new JksSslStoreDetails("PKCS12", null, store.toUri().toString(), ServletTls.PASSWORD);
    }

    private static HttpResponse<String> https(WebServer server, Path clientKeyStore,
            AtomicReference<X509Certificate> presented) throws IOException, InterruptedException {
        return https(server, clientKeyStore, presented, "/test.txt");
    }

    private static HttpResponse<String> https(WebServer server, Path clientKeyStore,
            AtomicReference<X509Certificate> presented, String path) throws IOException, InterruptedException {
        SSLContext context = ServletTls.client(clientKeyStore, presented);
        try (HttpClient client = HttpClient.newBuilder().sslContext(context).version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(20)).build()) {
            return client.send(HttpRequest.newBuilder(URI.create("https://localhost:" + server.getPort() + path))
                    .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    private static String messages(Throwable ex) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = ex; t != null; t = t.getCause()) {
            all.append(t).append('\n');
        }
        return all.toString();
    }

    private static ServletRegistrationBean<HttpServlet> scheme() {
        return new ServletRegistrationBean<>(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.getWriter().print(req.getScheme());
            }
        }, "/scheme");
    }
}
