package dev.weft.spring.boot;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslOptions;
import org.springframework.boot.web.server.Ssl;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/** Applies an SSL bundle's protocols and ciphers and the client-authentication mode to each connection. */
final class BundleHttpsConfigurator extends HttpsConfigurator {

    private final String[] protocols;
    private final String[] ciphers;
    private final Ssl.ClientAuth clientAuth;

    private BundleHttpsConfigurator(SSLContext context, String[] protocols, String[] ciphers,
            Ssl.ClientAuth clientAuth) {
        super(context);
        this.protocols = protocols;
        this.ciphers = ciphers;
        this.clientAuth = clientAuth;
    }

    /** The TLS configuration of {@code bundle}, asking clients for certificates as {@code clientAuth} says. */
    static BundleHttpsConfigurator of(SslBundle bundle, Ssl.ClientAuth clientAuth) {
        SslOptions options = bundle.getOptions();
        return new BundleHttpsConfigurator(bundle.createSslContext(), options.getEnabledProtocols(),
                options.getCiphers(), clientAuth != null ? clientAuth : Ssl.ClientAuth.NONE);
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
