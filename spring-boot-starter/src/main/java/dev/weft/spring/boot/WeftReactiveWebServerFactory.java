package dev.weft.spring.boot;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import dev.weft.httpserver.config.Http2Config;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.spring.boot.reactive.WeftCompression;
import dev.weft.spring.boot.reactive.WeftHttpHandlerAdapter;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.ssl.SslOptions;
import org.springframework.boot.web.server.Compression;
import org.springframework.boot.web.server.Http2;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.reactive.AbstractReactiveWebServerFactory;
import org.springframework.http.server.reactive.HttpHandler;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * A {@link org.springframework.boot.web.server.reactive.ReactiveWebServerFactory} that creates
 * {@link WeftWebServer}s: Weft serving a WebFlux {@link HttpHandler}.
 *
 * <p>Honours everything Spring Boot sets on a reactive server factory: port ({@code 0} picks a free port,
 * {@code -1} never listens), address, SSL (a {@link Ssl} with an SSL bundle or key-store properties,
 * enabled protocols and ciphers from the bundle's options, client authentication), compression, HTTP/2, the
 * server header and the shutdown mode. With {@link Http2} enabled, TLS connections offer {@code h2} by ALPN and
 * cleartext ones accept HTTP/2 with prior knowledge ({@code h2c}), as {@link #setHttp2Settings} allows; without
 * it (the default) the server speaks HTTP/1.1 only.
 *
 * <p>The engine's own limits and timeouts are set with the {@code set…} methods of this class
 * ({@code weft.server.*} properties when auto-configured) and, last, by {@link WeftServerCustomizer}s.
 * Connections always run on virtual threads, one per connection.
 *
 * <p>The class must stay top-level with a public no-arg constructor: a separate management port creates
 * another instance of it in the management child context.
 */
public class WeftReactiveWebServerFactory extends AbstractReactiveWebServerFactory {

    private static final Log logger = LogFactory.getLog(WeftReactiveWebServerFactory.class);

    private final ServerConfig.Builder config = ServerConfig.builder();

    private Http2Config http2Settings = Http2Config.defaults();

    private final List<WeftServerCustomizer> serverCustomizers = new ArrayList<>();

    /** A factory for port 8080 with the engine's default settings. */
    public WeftReactiveWebServerFactory() {
    }

    /**
     * A factory for the given port with the engine's default settings.
     *
     * @param port the port to listen on, {@code 0} for any free port, {@code -1} to never listen
     */
    public WeftReactiveWebServerFactory(int port) {
        super(port);
    }

    /**
     * Creates a server that is fully configured but not listening; {@link WeftWebServer#start()} binds it.
     *
     * @throws IllegalStateException if SNI server-name bundles are requested, which Weft does not offer yet
     */
    @Override
    public WebServer getWebServer(HttpHandler httpHandler) {
        ServerConfig serverConfig = buildServerConfig();
        HttpsConfigurator https = null;
        Ssl ssl = getSsl();
        if (Ssl.isEnabled(ssl)) {
            if (ssl.getServerNameBundles() != null && !ssl.getServerNameBundles().isEmpty()) {
                throw new IllegalStateException("Weft does not support server.ssl.server-name-bundles (SNI "
                        + "certificate selection) yet; remove them to serve one certificate for all names");
            }
            https = createHttpsConfigurator(getSslBundle(), ssl.getClientAuth());
        }
        WeftWebServer webServer = new WeftWebServer(new WeftHttpHandlerAdapter(httpHandler, compression()),
                serverConfig, listenAddress(), https, getShutdown());
        if (https != null) {
            registerSslBundleUpdates(ssl, webServer);
        }
        return webServer;
    }

    /**
     * The engine configuration a server created now would get: the settings of this factory, then the
     * server header (if one was set; a blank header means no {@code Server} header), then HTTP/2 (the
     * {@linkplain #setHttp2Settings HTTP/2 settings}, switched off entirely unless {@link Http2} is enabled),
     * then every {@link WeftServerCustomizer} in order.
     *
     * @throws IllegalArgumentException if the result is invalid (for example a non-positive limit)
     */
    public ServerConfig buildServerConfig() {
        ServerConfig.Builder builder = config.build().toBuilder();
        String serverHeader = getServerHeader();
        if (serverHeader != null) {
            builder.serverHeader(serverHeader.isBlank() ? null : serverHeader);
        }
        Http2 http2 = getHttp2();
        boolean http2Enabled = http2 != null && http2.isEnabled();
        builder.http2(http2Settings.toBuilder()
                .h2Enabled(http2Enabled && http2Settings.h2Enabled())
                .h2cEnabled(http2Enabled && http2Settings.h2cEnabled())
                .build());
        for (WeftServerCustomizer customizer : serverCustomizers) {
            customizer.customize(builder);
        }
        return builder.build();
    }

    /** Replaces the {@link WeftServerCustomizer}s applied to the engine configuration. */
    public void setServerCustomizers(Collection<? extends WeftServerCustomizer> customizers) {
        Objects.requireNonNull(customizers, "customizers");
        serverCustomizers.clear();
        serverCustomizers.addAll(customizers);
    }

    /** Adds {@link WeftServerCustomizer}s, applied after those already present. */
    public void addServerCustomizers(WeftServerCustomizer... customizers) {
        serverCustomizers.addAll(Arrays.asList(customizers));
    }

    /** The {@link WeftServerCustomizer}s applied to the engine configuration, in order. */
    public List<WeftServerCustomizer> getServerCustomizers() {
        return List.copyOf(serverCustomizers);
    }

    /** Most open connections; further ones are refused. */
    public void setMaxConnections(int maxConnections) {
        config.maxConnections(maxConnections);
    }

    /** Largest request header section, in bytes. */
    public void setMaxHeaderSize(int bytes) {
        config.maxHeaderSize(bytes);
    }

    /** Most header fields in one request. */
    public void setMaxHeaderCount(int count) {
        config.maxHeaderCount(count);
    }

    /** Longest request line, in bytes. */
    public void setMaxRequestLineLength(int bytes) {
        config.maxRequestLineLength(bytes);
    }

    /** Largest request body, in bytes. */
    public void setMaxRequestBodySize(long bytes) {
        config.maxRequestBodySize(bytes);
    }

    /** Time allowed from a request's first byte to the end of its header section. */
    public void setHeaderReadTimeout(Duration timeout) {
        config.headerReadTimeout(timeout);
    }

    /** How long an idle keep-alive connection waits for the next request. */
    public void setIdleTimeout(Duration timeout) {
        config.idleTimeout(timeout);
    }

    /** Longest wait for the next bytes of a request body. */
    public void setBodyReadTimeout(Duration timeout) {
        config.bodyReadTimeout(timeout);
    }

    /** Longest time one write to a client may block. */
    public void setWriteTimeout(Duration timeout) {
        config.writeTimeout(timeout);
    }

    /** Time allowed for a TLS handshake. */
    public void setTlsHandshakeTimeout(Duration timeout) {
        config.tlsHandshakeTimeout(timeout);
    }

    /** Slowest a client may send a request body after the grace period, in bytes per second; 0 for no minimum. */
    public void setMinRequestDataRate(long bytesPerSecond) {
        config.minRequestDataRate(bytesPerSecond);
    }

    /** Slowest a client may take a response after the grace period, in bytes per second; 0 for no minimum. */
    public void setMinResponseDataRate(long bytesPerSecond) {
        config.minResponseDataRate(bytesPerSecond);
    }

    /** How long a body or response may move slower than its minimum rate before the rate is enforced. */
    public void setDataRateGracePeriod(Duration gracePeriod) {
        config.dataRateGracePeriod(gracePeriod);
    }

    /** How long discarding a request body left unread may take after the response. */
    public void setDrainTimeout(Duration timeout) {
        config.drainTimeout(timeout);
    }

    /** Fraction of the connection limit above which the server is short of connections. */
    public void setLowResourcesThreshold(double fraction) {
        config.lowResourcesThreshold(fraction);
    }

    /** How long connections may be idle (or stalled) while the server is short of connections. */
    public void setLowResourcesIdleTimeout(Duration timeout) {
        config.lowResourcesIdleTimeout(timeout);
    }

    /** Listen backlog. */
    public void setBacklog(int backlog) {
        config.backlog(backlog);
    }

    /** Path of the engine's statistics page, or {@code null} for none. */
    public void setStatsPath(String path) {
        config.statsPath(path);
    }

    /** Whether the engine logs each exchange to the {@code dev.weft.httpserver.access} logger. */
    public void setAccessLog(boolean accessLog) {
        config.accessLog(accessLog);
    }

    /**
     * HTTP/2 limits, and which of {@code h2} (TLS, by ALPN) and {@code h2c} (cleartext, prior knowledge) may be
     * served. They apply only when {@link Http2} ({@code server.http2.enabled}) is enabled; otherwise the
     * server speaks HTTP/1.1 only. Defaults to {@link Http2Config#defaults()}: both allowed.
     */
    public void setHttp2Settings(Http2Config settings) {
        http2Settings = Objects.requireNonNull(settings, "settings");
    }

    /**
     * Settings and limits of WebSocket sessions (those of WebFlux {@code WebSocketHandler}s included).
     * Defaults to {@link WebSocketConfig#defaults()}.
     */
    public void setWebSocketSettings(WebSocketConfig settings) {
        config.webSocket(Objects.requireNonNull(settings, "settings"));
    }

    /** The HTTP/2 limits and the protocols allowed when HTTP/2 is enabled. */
    public Http2Config getHttp2Settings() {
        return http2Settings;
    }

    private WeftCompression compression() {
        Compression compression = getCompression();
        return compression != null && compression.getEnabled()
                ? WeftCompression.from(compression) : WeftCompression.DISABLED;
    }

    /** Where to listen, or {@code null} for port -1 (never listen). */
    private InetSocketAddress listenAddress() {
        int port = getPort();
        if (port < 0) {
            return null;
        }
        InetAddress address = getAddress();
        return address != null ? new InetSocketAddress(address, port) : new InetSocketAddress(port);
    }

    /** Swaps the TLS configuration of new connections when a named SSL bundle is reloaded. */
    private void registerSslBundleUpdates(Ssl ssl, WeftWebServer webServer) {
        SslBundles bundles = getSslBundles();
        String name = ssl.getBundle();
        if (bundles == null || name == null || name.isBlank()) {
            return;
        }
        Ssl.ClientAuth clientAuth = ssl.getClientAuth();
        bundles.addBundleUpdateHandler(name, bundle -> {
            logger.info("SSL bundle '" + name + "' updated; new Weft connections use it");
            webServer.updateHttpsConfigurator(createHttpsConfigurator(bundle, clientAuth));
        });
    }

    static HttpsConfigurator createHttpsConfigurator(SslBundle bundle, Ssl.ClientAuth clientAuth) {
        SslOptions options = bundle.getOptions();
        return new BundleHttpsConfigurator(bundle.createSslContext(), options.getEnabledProtocols(),
                options.getCiphers(), clientAuth != null ? clientAuth : Ssl.ClientAuth.NONE);
    }

    /** Applies the bundle's protocols and ciphers and the client-authentication mode to each connection. */
    private static final class BundleHttpsConfigurator extends HttpsConfigurator {

        private final String[] protocols;
        private final String[] ciphers;
        private final Ssl.ClientAuth clientAuth;

        BundleHttpsConfigurator(SSLContext context, String[] protocols, String[] ciphers,
                Ssl.ClientAuth clientAuth) {
            super(context);
            this.protocols = protocols;
            this.ciphers = ciphers;
            this.clientAuth = clientAuth;
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
}
