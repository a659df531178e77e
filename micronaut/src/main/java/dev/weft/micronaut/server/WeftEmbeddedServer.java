package dev.weft.micronaut.server;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.micronaut.config.EngineConfiguration;
import dev.weft.micronaut.http.MicronautHttpHandler;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.env.Environment;
import io.micronaut.core.io.ResourceResolver;
import io.micronaut.http.server.HttpServerConfiguration;
import io.micronaut.http.server.exceptions.HttpServerException;
import io.micronaut.http.server.exceptions.ServerStartupException;
import io.micronaut.http.ssl.ServerSslConfiguration;
import io.micronaut.runtime.ApplicationConfiguration;
import io.micronaut.runtime.graceful.GracefulShutdownCapable;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.runtime.server.event.ServerShutdownEvent;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Micronaut's embedded server on Weft: a Weft {@code HttpServer} (an {@code HttpsServer} when
 * {@code micronaut.server.ssl.enabled}) built from {@code micronaut.server.*} and {@code weft.server.*} each time
 * it starts, serving the application through {@link MicronautHttpHandler}. Starting publishes
 * {@link ServerStartupEvent}, stopping {@link ServerShutdownEvent} and then stops the application context, as
 * Netty's server does; {@link #refresh()} restarts it with the current configuration. With
 * {@code micronaut.lifecycle.graceful-shutdown.enabled} Micronaut calls {@link #shutdownGracefully()} first:
 * no new connection is accepted, idle ones close, and requests in flight finish.
 */
@Singleton
public class WeftEmbeddedServer implements EmbeddedServer, GracefulShutdownCapable {

    private static final Logger LOG = LoggerFactory.getLogger(WeftEmbeddedServer.class);

    private final ApplicationContext context;
    private final ApplicationConfiguration application;
    private final HttpServerConfiguration configuration;
    private final ServerSslConfiguration ssl;
    private final MicronautHttpHandler handler;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile HttpServer server;

    WeftEmbeddedServer(ApplicationContext context, ApplicationConfiguration application,
                       HttpServerConfiguration configuration, ServerSslConfiguration ssl,
                       MicronautHttpHandler handler) {
        this.context = context;
        this.application = application;
        this.configuration = configuration;
        this.ssl = ssl;
        this.handler = handler;
    }

    @Override
    public EmbeddedServer start() {
        lock.lock();
        try {
            if (server != null) {
                return this;
            }
            if (!context.isRunning()) {
                context.start();
            }
            server = createServer();
            server.start();
            LOG.info("Weft serves {} on {}", application.getName().orElse("the application"), getURI());
        } finally {
            lock.unlock();
        }
        context.getEventPublisher(ServerStartupEvent.class).publishEvent(new ServerStartupEvent(this));
        return this;
    }

    @Override
    public EmbeddedServer stop() {
        return stop(true);
    }

    private EmbeddedServer stop(boolean stopContext) {
        HttpServer stopped;
        lock.lock();
        try {
            stopped = server;
            server = null;
        } finally {
            lock.unlock();
        }
        if (stopped != null) {
            stopped.stop(0);
            context.getEventPublisher(ServerShutdownEvent.class).publishEvent(new ServerShutdownEvent(this));
        }
        if (stopContext && context.isRunning()) {
            context.stop();
        }
        return this;
    }

    /** Restarts the server (not the application) with the configuration as it is now. */
    @Override
    public EmbeddedServer refresh() {
        stop(false);
        return start();
    }

    @Override
    public CompletionStage<?> shutdownGracefully() {
        HttpServer current = server;
        if (current == null) {
            return CompletableFuture.completedFuture(null);
        }
        return Weft.shutdownGracefully(current);
    }

    @Override
    public OptionalLong reportActiveTasks() {
        HttpServer current = server;
        return current == null ? OptionalLong.empty() : OptionalLong.of(Weft.stats(current).exchangesActive());
    }

    @Override
    public boolean isRunning() {
        return server != null;
    }

    /** The engine server while running (for statistics: {@code Weft.stats(server)}). */
    public HttpServer getServer() {
        HttpServer current = server;
        if (current == null) {
            throw new IllegalStateException("The server is not running");
        }
        return current;
    }

    @Override
    public int getPort() {
        HttpServer current = server;
        return current == null ? ListenPort.of(configuration, ssl, context.getEnvironment()).port()
                : current.getAddress().getPort();
    }

    @Override
    public String getHost() {
        return configuration.getHost()
                .orElseGet(() -> System.getenv(Environment.HOSTNAME) != null ? System.getenv(Environment.HOSTNAME)
                        : "localhost");
    }

    @Override
    public String getScheme() {
        return ssl.isEnabled() ? "https" : "http";
    }

    @Override
    public URL getURL() {
        try {
            return getURI().toURL();
        } catch (MalformedURLException ex) {
            throw new HttpServerException("Invalid server URL: " + ex.getMessage(), ex);
        }
    }

    @Override
    public URI getURI() {
        try {
            return new URI(getScheme() + "://" + getHost() + ":" + getPort());
        } catch (URISyntaxException ex) {
            throw new HttpServerException("Invalid server URL: " + ex.getMessage(), ex);
        }
    }

    @Override
    public URI getContextURI() {
        String contextPath = configuration.getContextPath();
        return contextPath == null ? getURI() : URI.create(getURI() + contextPath);
    }

    @Override
    public ApplicationContext getApplicationContext() {
        return context;
    }

    @Override
    public ApplicationConfiguration getApplicationConfiguration() {
        return application;
    }

    @Override
    public boolean isKeepAlive() {
        return false;
    }

    private HttpServer createServer() {
        ServerConfig engine = EngineConfiguration.of(configuration, context.getEnvironment());
        ListenPort port = ListenPort.of(configuration, ssl, context.getEnvironment());
        InetSocketAddress address = configuration.getHost()
                .map(host -> new InetSocketAddress(host, port.bindPort()))
                .orElseGet(() -> new InetSocketAddress(port.bindPort()));
        try {
            HttpServer created;
            if (ssl.isEnabled()) {
                SSLContext tls = new TlsContexts(context.getBean(ResourceResolver.class)).build(ssl).orElseThrow();
                HttpsServer https = Weft.createHttpsServer(address, 0, engine);
                https.setHttpsConfigurator(TlsContexts.configurator(tls, ssl));
                created = https;
            } else {
                created = Weft.createHttpServer(address, 0, engine);
            }
            created.createContext("/", handler);
            return created;
        } catch (BindException ex) {
            throw new ServerStartupException("Unable to start Weft on " + address + ": the port is in use or the "
                    + "address cannot be bound (" + ex.getMessage() + ")", ex);
        } catch (IOException ex) {
            throw new ServerStartupException("Unable to start Weft on " + address + ": " + ex.getMessage(), ex);
        }
    }
}
