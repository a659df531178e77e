package dev.weft.micronaut.server;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import io.micronaut.core.io.ResourceResolver;
import io.micronaut.http.HttpVersion;
import io.micronaut.http.ssl.ClientAuthentication;
import io.micronaut.http.ssl.SslBuilder;
import io.micronaut.http.ssl.SslConfiguration;
import io.micronaut.http.ssl.SslConfigurationException;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import java.security.GeneralSecurityException;
import java.util.Optional;

/**
 * The TLS side of {@code micronaut.server.ssl.*} (or {@code micronaut.ssl.*}) for Weft's {@code HttpsServer}: an
 * {@link SSLContext} from the configured key store and trust store (read by Micronaut's own {@link SslBuilder}
 * rules: {@code classpath:} and {@code file:} paths, store types and passwords), and an {@link HttpsConfigurator}
 * applying the protocols, ciphers and client authentication ({@code want} or {@code need}).
 */
final class TlsContexts extends SslBuilder<SSLContext> {

    TlsContexts(ResourceResolver resources) {
        super(resources);
    }

    @Override
    public Optional<SSLContext> build(SslConfiguration ssl) {
        return build(ssl, HttpVersion.HTTP_1_1);
    }

    @Override
    public Optional<SSLContext> build(SslConfiguration ssl, HttpVersion httpVersion) {
        if (!ssl.isEnabled()) {
            return Optional.empty();
        }
        KeyManagerFactory keys = getKeyManagerFactory(ssl);
        TrustManagerFactory trust = getTrustManagerFactory(ssl);
        try {
            SSLContext context = SSLContext.getInstance(ssl.getProtocol().orElse("TLS"));
            context.init(keys.getKeyManagers(), trust == null ? null : trust.getTrustManagers(), null);
            return Optional.of(context);
        } catch (GeneralSecurityException ex) {
            throw new SslConfigurationException(ex);
        }
    }

    /** The configurator of an {@code HttpsServer} serving with {@code context} as {@code ssl} says. */
    static HttpsConfigurator configurator(SSLContext context, SslConfiguration ssl) {
        return new HttpsConfigurator(context) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters parameters = context.getDefaultSSLParameters();
                ssl.getProtocols().ifPresent(parameters::setProtocols);
                ssl.getCiphers().ifPresent(parameters::setCipherSuites);
                ClientAuthentication auth = ssl.getClientAuthentication().orElse(null);
                if (auth == ClientAuthentication.NEED) {
                    parameters.setNeedClientAuth(true);
                } else if (auth == ClientAuthentication.WANT) {
                    parameters.setWantClientAuth(true);
                }
                params.setSSLParameters(parameters);
            }
        };
    }
}
