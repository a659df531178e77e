package dev.weft.spring.boot;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.spring.boot.reactive.WeftCompression;
import dev.weft.spring.boot.reactive.WeftHttpHandlerAdapter;
import org.springframework.boot.web.server.Compression;
import org.springframework.boot.web.server.Http2;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.reactive.AbstractReactiveWebServerFactory;
import org.springframework.http.server.reactive.HttpHandler;

/**
 * A {@link org.springframework.boot.web.server.reactive.ReactiveWebServerFactory} that creates
 * {@link WeftWebServer}s: Weft serving a WebFlux {@link HttpHandler}.
 *
 * <p>Honours everything Spring Boot sets on a reactive server factory: port ({@code 0} picks a free port,
 * {@code -1} never listens), address, SSL (a {@link Ssl} with an SSL bundle or key-store properties,
 * enabled protocols and ciphers from the bundle's options, client authentication, server-name bundles for SNI),
 * compression, HTTP/2, the server header and the shutdown mode. With {@link Http2} enabled, TLS connections
 * offer {@code h2} by ALPN and cleartext ones accept HTTP/2 with prior knowledge ({@code h2c}), as
 * {@link #setHttp2Settings} allows; without it (the default) the server speaks HTTP/1.1 only.
 *
 * <p>The engine's own limits and timeouts are set with the {@code set…} methods of
 * {@link ConfigurableWeftWebServerFactory} ({@code weft.server.*} properties when auto-configured) and, last,
 * by {@link WeftServerCustomizer}s. Connections always run on virtual threads, one per connection.
 *
 * <p>The class must stay top-level with a public no-arg constructor: a separate management port creates
 * another instance of it in the management child context.
 */
public class WeftReactiveWebServerFactory extends AbstractReactiveWebServerFactory
        implements ConfigurableWeftWebServerFactory {

    private final WeftEngineSettings engineSettings = new WeftEngineSettings();

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
     */
    @Override
    public WebServer getWebServer(HttpHandler httpHandler) {
        ServerConfig serverConfig = buildServerConfig();
        WeftEndpoint endpoint = WeftEndpoint.of(this);
        WeftWebServer webServer = new WeftWebServer(new WeftHttpHandlerAdapter(httpHandler, compression()),
                serverConfig, endpoint, getAdditionalListeners(), getShutdown());
        endpoint.followSslBundleUpdates(this, webServer);
        return webServer;
    }

    @Override
    public WeftEngineSettings getEngineSettings() {
        return engineSettings;
    }

    @Override
    public ServerConfig buildServerConfig() {
        return engineSettings.serverConfig(getServerHeader(), getHttp2());
    }

    private WeftCompression compression() {
        Compression compression = getCompression();
        return compression != null && compression.getEnabled()
                ? WeftCompression.from(compression) : WeftCompression.DISABLED;
    }
}
