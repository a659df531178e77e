package dev.weft.spring.boot;

import dev.weft.httpserver.testing.HostCertificates;
import org.springframework.boot.ssl.DefaultSslBundleRegistry;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.jks.JksSslStoreBundle;
import org.springframework.boot.ssl.jks.JksSslStoreDetails;
import org.springframework.boot.web.server.Ssl;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server factory's side of {@code server.ssl.server-name-bundles}: an {@link Ssl} with default bundle
 * {@code default} ({@code default.test}) and bundle {@code a} ({@code a.test}) for server name {@code a.test},
 * their registry, and the check that a server made from them serves each name its certificate across reloads of
 * either bundle.
 */
public final class ServerNameBundleRegistry {

    private final List<HostCertificates> hosts;
    private final DefaultSslBundleRegistry bundles = new DefaultSslBundleRegistry();

    /** Generates the key stores into {@code dir}. */
    public ServerNameBundleRegistry(Path dir) {
        hosts = HostCertificates.generate(dir, List.of("default.test", "a.test", "b.test"), List.of("EC", "EC", "EC"));
        bundles.registerBundle("default", bundle(hosts.get(0)));
        bundles.registerBundle("a", bundle(hosts.get(1)));
    }

    /** The server's SSL settings. */
    public Ssl ssl() {
        Ssl ssl = Ssl.forBundle("default");
        ssl.setServerNameBundles(List.of(new Ssl.ServerNameSslBundle("a.test", "a")));
        return ssl;
    }

    /** The bundles, for the factory. */
    public DefaultSslBundleRegistry bundles() {
        return bundles;
    }

    /**
     * Checks the certificates the server on {@code port} presents by name, while bundle {@code a} is reloaded
     * with {@code b.test}'s key store, then the default one with {@code a.test}'s.
     */
    public void assertEachNameGetsItsCertificateAcrossReloads(int port) {
        assertThat(SniBundleFiles.presentedName(port, "a.test")).isEqualTo("a.test");
        assertThat(SniBundleFiles.presentedName(port, null)).isEqualTo("default.test");

        bundles.updateBundle("a", bundle(hosts.get(2)));
        assertThat(SniBundleFiles.presentedName(port, "a.test")).isEqualTo("b.test");
        bundles.updateBundle("default", bundle(hosts.get(1)));

        assertThat(SniBundleFiles.presentedName(port, null)).isEqualTo("a.test");
        assertThat(SniBundleFiles.presentedName(port, "a.test")).as("the earlier reload stays").isEqualTo("b.test");
    }

    private static SslBundle bundle(HostCertificates host) {
        return SslBundle.of(new JksSslStoreBundle(new JksSslStoreDetails("PKCS12", null,
                host.keyStore().toUri().toString(), HostCertificates.PASSWORD), null));
    }
}
