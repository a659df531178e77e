package dev.weft.spring.boot;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import dev.weft.httpserver.ServerNameCertificates;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslOptions;
import org.springframework.boot.web.server.Ssl;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import java.security.GeneralSecurityException;

/**
 * Serves the certificate of the server's SSL bundles (by SNI server name when there are several), and applies
 * the default bundle's protocols and ciphers and the client-authentication mode to each connection.
 */
final class BundleHttpsConfigurator extends HttpsConfigurator {

    private final ServerSslBundles bundles;
    private final String[] protocols;
    private final String[] ciphers;
    private final Ssl.ClientAuth clientAuth;

    private BundleHttpsConfigurator(ServerSslBundles bundles, Ssl.ClientAuth clientAuth) {
        super(sslContext(bundles));
        SslOptions options = bundles.defaultBundle().getOptions();
        this.bundles = bundles;
        this.protocols = options.getEnabledProtocols();
        this.ciphers = options.getCiphers();
        this.clientAuth = clientAuth != null ? clientAuth : Ssl.ClientAuth.NONE;
    }

    /** The TLS configuration of {@code bundles}, asking clients for certificates as {@code clientAuth} says. */
    static BundleHttpsConfigurator of(ServerSslBundles bundles, Ssl.ClientAuth clientAuth) {
        return new BundleHttpsConfigurator(bundles, clientAuth);
    }

    /** This configuration with {@code bundle} (reloaded) for {@code serverName}, the default for {@code null}. */
    BundleHttpsConfigurator with(String serverName, SslBundle bundle) {
        return new BundleHttpsConfigurator(bundles.with(serverName, bundle), clientAuth);
    }

    /**
     * One context: the default bundle's protocol and trust, and the key material of the bundle of the name the
     * client asks for. The protocols and ciphers are set before the client names a server, so the default
     * bundle's apply to every name.
     */
    private static SSLContext sslContext(ServerSslBundles bundles) {
        SslBundle fallback = bundles.defaultBundle();
        if (bundles.byServerName().isEmpty()) {
            return fallback.createSslContext();
        }
        ServerNameCertificates.Builder builder = ServerNameCertificates.builder(
                ServerNameCertificates.x509KeyManager(fallback.getManagers().getKeyManagers()));
        bundles.byServerName().forEach((name, bundle) -> builder.add(name,
                ServerNameCertificates.x509KeyManager(bundle.getManagers().getKeyManagers())));
        try {
            return builder.build().sslContext(fallback.getProtocol(), fallback.getManagers().getTrustManagers());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Could not create the SSL context of the server's SSL bundles", e);
        }
    }

    @Override
    public void configure(HttpsParameters params) {
        SSLParameters parameters = getSSLContext().getDefaultSSLParameters();
        if (protocols != null) {
            parameters.setProtocols(protocols);
        }
        if (ciphers != null) {
            parameters.setCipherSuites(ciphers);
        }
        switch (clientAuth) {
            case NEED -> parameters.setNeedClientAuth(true);
            case WANT -> parameters.setWantClientAuth(true);
            case NONE -> { }
        }
        params.setSSLParameters(parameters);
    }
}
