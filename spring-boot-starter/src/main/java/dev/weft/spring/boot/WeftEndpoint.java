package dev.weft.spring.boot;

import com.sun.net.httpserver.HttpsConfigurator;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.server.AbstractConfigurableWebServerFactory;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServerSslBundle;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Where and how a Weft server listens, as a Spring Boot server factory says: its port and address, and TLS
 * from its {@link Ssl} (an SSL bundle or key-store properties, the bundle's protocols and ciphers, client
 * authentication).
 *
 * @param address           where to listen, or {@code null} for port -1 (never listen)
 * @param httpsConfigurator the TLS configuration, or {@code null} for cleartext HTTP
 */
public record WeftEndpoint(InetSocketAddress address, HttpsConfigurator httpsConfigurator) {

    private static final Log logger = LogFactory.getLog(WeftEndpoint.class);

    /**
     * The endpoint {@code factory} describes.
     *
     * @throws IllegalStateException if SNI server-name bundles are requested, which Weft does not offer yet
     */
    public static WeftEndpoint of(AbstractConfigurableWebServerFactory factory) {
        HttpsConfigurator https = null;
        Ssl ssl = factory.getSsl();
        if (Ssl.isEnabled(ssl)) {
            if (ssl.getServerNameBundles() != null && !ssl.getServerNameBundles().isEmpty()) {
                throw new IllegalStateException("Weft does not support server.ssl.server-name-bundles (SNI "
                        + "certificate selection) yet; remove them to serve one certificate for all names");
            }
            https = BundleHttpsConfigurator.of(WebServerSslBundle.get(ssl, factory.getSslBundles()),
                    ssl.getClientAuth());
        }
        return new WeftEndpoint(listenAddress(factory.getPort(), factory.getAddress()), https);
    }

    private static InetSocketAddress listenAddress(int port, InetAddress address) {
        if (port < 0) {
            return null;
        }
        return address != null ? new InetSocketAddress(address, port) : new InetSocketAddress(port);
    }

    /**
     * Swaps the TLS configuration of {@code webServer}'s new connections whenever the named SSL bundle of
     * {@code factory} is reloaded; does nothing for a cleartext server or TLS without a named bundle.
     */
    public void followSslBundleUpdates(AbstractConfigurableWebServerFactory factory, WeftWebServer webServer) {
        Ssl ssl = factory.getSsl();
        SslBundles bundles = factory.getSslBundles();
        if (httpsConfigurator == null || bundles == null || ssl == null || ssl.getBundle() == null
                || ssl.getBundle().isBlank()) {
            return;
        }
        String name = ssl.getBundle();
        Ssl.ClientAuth clientAuth = ssl.getClientAuth();
        bundles.addBundleUpdateHandler(name, bundle -> {
            logger.info("SSL bundle '" + name + "' updated; new Weft connections use it");
            webServer.updateHttpsConfigurator(BundleHttpsConfigurator.of(bundle, clientAuth));
        });
    }
}
