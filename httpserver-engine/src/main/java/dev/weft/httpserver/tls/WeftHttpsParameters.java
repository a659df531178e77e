package dev.weft.httpserver.tls;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import java.net.InetSocketAddress;

/**
 * The parameters handed to {@link HttpsConfigurator#configure(HttpsParameters)} for one connection; what
 * the configurator sets becomes that connection's {@link SSLParameters}.
 */
final class WeftHttpsParameters extends HttpsParameters {

    private final HttpsConfigurator configurator;
    private final InetSocketAddress client;
    private SSLParameters explicit;

    WeftHttpsParameters(HttpsConfigurator configurator, InetSocketAddress client) {
        this.configurator = configurator;
        this.client = client;
    }

    @Override
    public HttpsConfigurator getHttpsConfigurator() {
        return configurator;
    }

    @Override
    public InetSocketAddress getClientAddress() {
        return client;
    }

    @Override
    public void setSSLParameters(SSLParameters params) {
        explicit = params;
    }

    /**
     * The parameters to apply: those set explicitly, else the context defaults with the individual settings.
     * Those setters are deprecated in the JDK API but still part of it: a configurator that uses them is
     * honoured.
     */
    @SuppressWarnings("deprecation")
    SSLParameters resolve(SSLContext context) {
        if (explicit != null) {
            return explicit;
        }
        SSLParameters p = context.getDefaultSSLParameters();
        if (getCipherSuites() != null) {
            p.setCipherSuites(getCipherSuites());
        }
        if (getProtocols() != null) {
            p.setProtocols(getProtocols());
        }
        if (getNeedClientAuth()) {
            p.setNeedClientAuth(true);
        } else if (getWantClientAuth()) {
            p.setWantClientAuth(true);
        }
        return p;
    }
}
