package dev.weft.spring.boot;

import com.sun.net.httpserver.HttpsConfigurator;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.server.AbstractConfigurableWebServerFactory;
import org.springframework.boot.web.server.Ssl;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where and how a Weft server listens, as a Spring Boot server factory says: its port and address, and TLS
 * from its {@link Ssl} (an SSL bundle or key-store properties, the bundle's protocols and ciphers, client
 * authentication, a certificate per SNI server name from {@code server-name-bundles}).
 *
 * @param address           where to listen, or {@code null} for port -1 (never listen)
 * @param httpsConfigurator the TLS configuration, or {@code null} for cleartext HTTP
 */
public record WeftEndpoint(InetSocketAddress address, HttpsConfigurator httpsConfigurator) {

    private static final Log logger = LogFactory.getLog(WeftEndpoint.class);

    /**
     * The endpoint {@code factory} describes; with {@code server.ssl.server-name-bundles}, the certificate served
     * is that of the bundle of the server name the client asks for (SNI), else the default bundle's.
     */
    public static WeftEndpoint of(AbstractConfigurableWebServerFactory factory) {
        HttpsConfigurator https = null;
        Ssl ssl = factory.getSsl();
        if (Ssl.isEnabled(ssl)) {
            https = BundleHttpsConfigurator.of(ServerSslBundles.of(ssl, factory.getSslBundles()),
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
     * Swaps the TLS configuration of {@code webServer}'s new connections whenever one of the named SSL bundles of
     * {@code factory} (the default one, those of the server names) is reloaded; does nothing for a cleartext
     * server or TLS without named bundles.
     */
    public void followSslBundleUpdates(AbstractConfigurableWebServerFactory factory, WeftWebServer webServer) {
        Ssl ssl = factory.getSsl();
        SslBundles bundles = factory.getSslBundles();
        if (!(httpsConfigurator instanceof BundleHttpsConfigurator initial) || bundles == null || ssl == null) {
            return;
        }
        AtomicReference<BundleHttpsConfigurator> current = new AtomicReference<>(initial);
        follow(bundles, ssl.getBundle(), null, current, webServer);
        if (ssl.getServerNameBundles() != null) {
            for (Ssl.ServerNameSslBundle named : ssl.getServerNameBundles()) {
                follow(bundles, named.bundle(), named.serverName(), current, webServer);
            }
        }
    }

    private static void follow(SslBundles bundles, String bundleName, String serverName,
            AtomicReference<BundleHttpsConfigurator> current, WeftWebServer webServer) {
        if (bundleName == null || bundleName.isBlank()) {
            return;
        }
        bundles.addBundleUpdateHandler(bundleName, bundle -> {
            logger.info("SSL bundle '" + bundleName + "' updated" + (serverName != null ? " (server name '"
                    + serverName + "')" : "") + "; new Weft connections use it");
            webServer.updateHttpsConfigurator(current.updateAndGet(c -> c.with(serverName, bundle)));
        });
    }
}
