package dev.weft.spring.boot.servlet;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.servlet.ServletContainer;
import dev.weft.servlet.ServletContainerConfig;
import dev.weft.servlet.ServletContainerException;
import dev.weft.spring.boot.ConfigurableWeftWebServerFactory;
import dev.weft.spring.boot.WeftEndpoint;
import dev.weft.spring.boot.WeftEngineSettings;
import dev.weft.spring.boot.WeftServerCustomizer;
import org.springframework.boot.web.server.AbstractConfigurableWebServerFactory;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.WebServerException;
import org.springframework.boot.web.server.servlet.ConfigurableServletWebServerFactory;
import org.springframework.boot.web.server.servlet.ContextPath;
import org.springframework.boot.web.server.servlet.ServletWebServerSettings;
import org.springframework.boot.web.servlet.ServletContextInitializer;
import org.springframework.context.ResourceLoaderAware;
import org.springframework.core.io.ResourceLoader;

/**
 * A {@link org.springframework.boot.web.server.servlet.ServletWebServerFactory} that creates
 * {@link WeftServletWebServer}s: a Weft servlet container (Jakarta Servlet 6.1) on a Weft engine server, for
 * Spring MVC applications.
 *
 * <p>Honours everything Spring Boot sets on a servlet server factory ({@link ServletContainerMapping} says how
 * each servlet setting maps onto the container): port ({@code 0} picks a free port, {@code -1} never listens),
 * address, SSL ({@link Ssl} with an SSL bundle or key-store properties, client authentication, server-name
 * bundles for SNI), compression, HTTP/2 ({@code h2} by ALPN over TLS, {@code h2c} with prior knowledge in
 * cleartext, as {@link #setHttp2Settings} allows), the server header, the shutdown mode, the context path, display name,
 * context init parameters, sessions (timeout, tracking modes, cookie, persistence), the MIME table, locale
 * charsets, error pages, the default servlet, the document root and {@code META-INF/resources} of jars,
 * {@code SameSite} suppliers and web listeners. The engine's own limits and timeouts are set with the
 * {@code set…} methods of {@link ConfigurableWeftWebServerFactory} and, last, by {@link WeftServerCustomizer}s.
 * Requests run on virtual threads, one per connection; the container has no thread pool.
 *
 * <p>JSP is not supported: no JSP servlet is registered, and if Spring Boot asks for one while Jasper is on the
 * class path a warning says so.
 *
 * <p>The class must stay top-level with a public no-arg constructor: a separate management port creates
 * another instance of it in the management child context.
 */
public class WeftServletWebServerFactory extends AbstractConfigurableWebServerFactory
        implements ConfigurableServletWebServerFactory, ConfigurableWeftWebServerFactory, ResourceLoaderAware {

    private final ServletWebServerSettings settings = new ServletWebServerSettings();

    private final WeftEngineSettings engineSettings = new WeftEngineSettings();

    private ClassLoader classLoader;

    /** A factory for port 8080 and the root context with the engine's default settings. */
    public WeftServletWebServerFactory() {
    }

    /**
     * A factory for the given port and the root context with the engine's default settings.
     *
     * @param port the port to listen on, {@code 0} for any free port, {@code -1} to never listen
     */
    public WeftServletWebServerFactory(int port) {
        super(port);
    }

    /**
     * A factory for the given context path and port.
     *
     * @param contextPath {@code ""} for the root context, else {@code /name}
     * @param port        the port to listen on, {@code 0} for any free port, {@code -1} to never listen
     */
    public WeftServletWebServerFactory(String contextPath, int port) {
        super(port);
        settings.setContextPath(ContextPath.of(contextPath));
    }

    /**
     * Creates the servlet context and runs every initializer (Spring Boot's, then {@code initializers}, then
     * this factory's) at once; nothing listens, and no filter or servlet is initialized, until
     * {@link WebServer#start()}.
     *
     * @throws WebServerException     if an initializer or a {@code ServletContextListener} failed
     */
    @Override
    public WebServer getWebServer(ServletContextInitializer... initializers) {
        ServerConfig serverConfig = buildServerConfig();
        WeftEndpoint endpoint = WeftEndpoint.of(this);
        ServletContainerConfig containerConfig = new ServletContainerMapping(settings, getErrorPages(),
                getCompression(), classLoader).containerConfig(initializers);
        ServletContainer container;
        try {
            container = ServletContainer.create(containerConfig);
        } catch (ServletContainerException ex) {
            throw new WebServerException("Unable to create the Weft servlet container", ex);
        }
        WeftServletWebServer webServer = new WeftServletWebServer(container, serverConfig, endpoint,
                getAdditionalListeners(), getShutdown());
        endpoint.followSslBundleUpdates(this, webServer);
        return webServer;
    }

    @Override
    public ServletWebServerSettings getSettings() {
        return settings;
    }

    @Override
    public WeftEngineSettings getEngineSettings() {
        return engineSettings;
    }

    /**
     * {@inheritDoc}
     *
     * <p>As with Spring Boot's other servlet servers, responses carry no {@code Server} header unless one is
     * set ({@code server.server-header}).
     */
    @Override
    public ServerConfig buildServerConfig() {
        String serverHeader = getServerHeader();
        return engineSettings.serverConfig(serverHeader != null ? serverHeader : "", getHttp2());
    }

    /** Takes the application's class loader, which the servlet context uses. */
    @Override
    public void setResourceLoader(ResourceLoader resourceLoader) {
        this.classLoader = resourceLoader.getClassLoader();
    }

}
