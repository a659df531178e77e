package dev.weft.spring.boot.servlet;

import dev.weft.httpserver.config.Listener;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.servlet.ServletContainer;
import dev.weft.servlet.ServletContainerException;
import dev.weft.spring.boot.WeftEndpoint;
import dev.weft.spring.boot.WeftWebServer;
import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.WebServerException;

import java.util.List;

/**
 * A {@link WeftWebServer} serving one servlet web application: a Weft {@link ServletContainer} mounted on the
 * engine server's root context.
 *
 * <p>The container is created (its servlet context built, every initializer run) with this server;
 * {@link #start()} initializes its filters and load-on-startup servlets (the first time) before the port is
 * bound, so the application is ready when {@code start} returns. {@link #stop()} closes the port, and the
 * container answers 503 until the next start; {@link #destroy()} destroys the application (servlets, filters,
 * sessions, {@code contextDestroyed}). Graceful shutdown is the engine's: an asynchronous request keeps its
 * exchange open, so it is waited for too.
 */
public class WeftServletWebServer extends WeftWebServer {

    private final ServletContainer container;

    /**
     * A server for {@code container}.
     *
     * @param container the created (not started) servlet container
     * @param config    the engine configuration
     * @param endpoint  where to listen (or never), with or without TLS
     * @param shutdown  how {@link #shutDownGracefully} behaves
     */
    public WeftServletWebServer(ServletContainer container, ServerConfig config, WeftEndpoint endpoint,
            Shutdown shutdown) {
        this(container, config, endpoint, List.of(), shutdown);
    }

    /**
     * A server for {@code container} that listens on {@code additionalListeners} too.
     *
     * @param container           the created (not started) servlet container
     * @param config              the engine configuration
     * @param endpoint            where to listen (or never), with or without TLS
     * @param additionalListeners where else to listen, once the endpoint listens
     * @param shutdown            how {@link #shutDownGracefully} behaves
     */
    public WeftServletWebServer(ServletContainer container, ServerConfig config, WeftEndpoint endpoint,
            List<Listener> additionalListeners, Shutdown shutdown) {
        super(container.handler(), config, endpoint, additionalListeners, shutdown);
        this.container = container;
    }

    /** The servlet container this server runs. */
    public ServletContainer getContainer() {
        return container;
    }

    @Override
    protected void beforeListening() {
        try {
            container.start();
        } catch (ServletContainerException ex) {
            throw new WebServerException("Unable to start the Weft servlet container", ex);
        }
    }

    @Override
    protected void afterStopped() {
        container.stop();
    }

    @Override
    protected void afterDestroyed() {
        container.destroy();
    }

    @Override
    protected String startedMessage() {
        String contextPath = container.contextPath();
        return super.startedMessage() + " with context path '" + (contextPath.isEmpty() ? "/" : contextPath) + "'";
    }
}
