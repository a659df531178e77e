package dev.weft.httpserver.tls;

import com.sun.net.httpserver.HttpsConfigurator;
import dev.weft.httpserver.core.TransportSecurity;
import dev.weft.httpserver.stats.ServerStats;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * TLS for an {@code HttpsServer}: per connection, asks the current {@link HttpsConfigurator} to configure
 * the parameters, then runs the handshake on the connection's own thread within the handshake timeout.
 */
public final class TlsTransport implements TransportSecurity {

    private final Supplier<HttpsConfigurator> configurator;
    private final Duration handshakeTimeout;
    private final ServerStats stats;
    private final boolean offerH2;

    /**
     * @param offerH2 whether to offer {@code h2} by ALPN (unless the configurator chose protocols itself)
     */
    public TlsTransport(Supplier<HttpsConfigurator> configurator, Duration handshakeTimeout, ServerStats stats,
                        boolean offerH2) {
        this.configurator = configurator;
        this.handshakeTimeout = handshakeTimeout;
        this.stats = stats;
        this.offerH2 = offerH2;
    }

    @Override
    public Socket secure(Socket accepted) throws IOException {
        HttpsConfigurator cfg = configurator.get();
        if (cfg == null) {
            throw new IOException("no HttpsConfigurator set on the HttpsServer");
        }
        SSLContext context = cfg.getSSLContext();
        InetSocketAddress client = (InetSocketAddress) accepted.getRemoteSocketAddress();
        SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(accepted,
                client.getAddress().getHostAddress(), client.getPort(), true);
        tls.setUseClientMode(false);
        WeftHttpsParameters params = new WeftHttpsParameters(cfg, client);
        cfg.configure(params);
        SSLParameters resolved = params.resolve(context);
        String[] alpn = resolved.getApplicationProtocols();
        if (alpn == null || alpn.length == 0) {
            resolved.setApplicationProtocols(offerH2 ? new String[] {"h2", "http/1.1"} : new String[] {"http/1.1"});
        }
        tls.setSSLParameters(resolved);
        tls.setSoTimeout((int) handshakeTimeout.toMillis());
        try {
            tls.startHandshake();
        } catch (SocketTimeoutException e) {
            stats.timeoutClose();
            throw e;
        }
        // Later reads are untimed; the connection registry's sweeper enforces their deadlines.
        tls.setSoTimeout(0);
        return tls;
    }

    @Override
    public boolean encrypts() {
        return true;
    }
}
