package dev.weft.spring.boot;

import dev.weft.httpserver.testing.HostCertificates;
import org.springframework.test.context.DynamicPropertyRegistry;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * Key stores for an application with {@code server.ssl.server-name-bundles}: SSL bundle {@code default}
 * ({@code CN=default.test}) as {@code server.ssl.bundle}, bundles {@code a} ({@code a.test}, reloaded on update)
 * and {@code b} ({@code b.test}) for those server names; and a client that reads the certificate a server
 * presents to a given name.
 */
public final class SniBundleFiles {

    private final List<HostCertificates> hosts;
    private final HostCertificates nextA;

    private SniBundleFiles(List<HostCertificates> hosts, HostCertificates nextA) {
        this.hosts = hosts;
        this.nextA = nextA;
    }

    /** New key stores in a new temporary directory, and a second one for {@code a.test}, for a reload. */
    public static SniBundleFiles generate() {
        try {
            Path dir = Files.createTempDirectory("weft-sni");
            Path next = Files.createDirectory(dir.resolve("next"));
            List<HostCertificates> hosts = HostCertificates.generate(dir,
                    List.of("default.test", "a.test", "b.test"), List.of("EC", "EC", "RSA"));
            HostCertificates nextA = HostCertificates.generate(next, List.of("a.test"), List.of("EC")).get(0);
            return new SniBundleFiles(hosts, nextA);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The properties of the three bundles and of the server's SSL, with a short file-watch quiet period. */
    public void register(DynamicPropertyRegistry registry) {
        registry.add("server.ssl.bundle", () -> "default");
        registry.add("server.ssl.server-name-bundles[0].server-name", () -> "a.test");
        registry.add("server.ssl.server-name-bundles[0].bundle", () -> "a");
        registry.add("server.ssl.server-name-bundles[1].server-name", () -> "*.b.test");
        registry.add("server.ssl.server-name-bundles[1].bundle", () -> "b");
        registry.add("spring.ssl.bundle.watch.file.quiet-period", () -> "100ms");
        List<String> bundles = List.of("default", "a", "b");
        for (int i = 0; i < bundles.size(); i++) {
            String prefix = "spring.ssl.bundle.jks." + bundles.get(i) + ".";
            Path store = hosts.get(i).keyStore();
            registry.add(prefix + "keystore.location", () -> store.toUri().toString());
            registry.add(prefix + "keystore.type", () -> "PKCS12");
            registry.add(prefix + "keystore.password", () -> HostCertificates.PASSWORD);
        }
        registry.add("spring.ssl.bundle.jks.a.reload-on-update", () -> "true");
    }

    /** The certificate for {@code default.test}, {@code a.test} or {@code b.test} as generated first. */
    public HostCertificates host(String name) {
        return hosts.stream().filter(h -> h.host().equals(name)).findFirst().orElseThrow();
    }

    /** The certificate {@code a.test} gets after {@link #replaceA()}. */
    public HostCertificates nextA() {
        return nextA;
    }

    /** Overwrites bundle {@code a}'s key store with a new key and certificate for {@code a.test}. */
    public void replaceA() {
        try {
            Files.copy(nextA.keyStore(), host("a.test").keyStore(), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The certificate the server on {@code port} presents to a new connection naming {@code serverName}
     * ({@code null}: none); trusts whatever it is.
     */
    public static X509Certificate presented(int port, String serverName) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new AnyServer()}, null);
            try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket()) {
                SSLParameters parameters = socket.getSSLParameters();
                parameters.setServerNames(serverName == null ? List.of() : List.of(new SNIHostName(serverName)));
                socket.setSSLParameters(parameters);
                socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
                socket.setSoTimeout(5000);
                socket.startHandshake();
                return (X509Certificate) socket.getSession().getPeerCertificates()[0];
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The subject common name of what {@link #presented} returns. */
    public static String presentedName(int port, String serverName) {
        return presented(port, serverName).getSubjectX500Principal().getName().replaceFirst("^CN=", "");
    }

    /** Trusts any server: only which certificate is presented matters here. */
    private static final class AnyServer implements X509TrustManager {

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
