package dev.weft.servlet.testing;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.servlet.ServletContainer;
import dev.weft.servlet.ServletContainerConfig;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.function.Consumer;

/**
 * A servlet container mounted on a started Weft server ({@code 127.0.0.1}, an ephemeral port, cleartext or
 * TLS) for one test. {@link #close()} stops the server and destroys the container.
 */
public final class ServletServer implements AutoCloseable {

    private final ServletContainer container;
    private final HttpServer server;
    private final String scheme;

    private ServletServer(ServletContainer container, HttpServer server, String scheme) {
        this.container = container;
        this.server = server;
        this.scheme = scheme;
    }

    /** Creates, starts and mounts a container configured by {@code configure} on a cleartext server. */
    public static ServletServer start(Consumer<ServletContainerConfig.Builder> configure) throws IOException {
        return start(configure, ServerConfig.defaults(), null);
    }

    /** The same over TLS with the shared test certificates (a client certificate is asked for, not required). */
    public static ServletServer startTls(Consumer<ServletContainerConfig.Builder> configure) throws IOException {
        return start(configure, ServerConfig.defaults(), Tls.shared().serverContext());
    }

    /**
     * Creates, starts and mounts a container; with {@code tls} the server is an {@code HttpsServer} (h2 and
     * http/1.1 by ALPN).
     */
    public static ServletServer start(Consumer<ServletContainerConfig.Builder> configure, ServerConfig serverConfig,
                                      SSLContext tls) throws IOException {
        ServletContainerConfig.Builder b = ServletContainerConfig.builder();
        configure.accept(b);
        ServletContainer container = ServletContainer.create(b.build());
        container.start();
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", 0);
        HttpServer server;
        if (tls != null) {
            HttpsServer https = Weft.createHttpsServer(address, 0, serverConfig);
            https.setHttpsConfigurator(new HttpsConfigurator(tls) {
                @Override
                public void configure(HttpsParameters params) {
                    SSLParameters p = tls.getDefaultSSLParameters();
                    p.setWantClientAuth(true);
                    params.setSSLParameters(p);
                }
            });
            server = https;
        } else {
            server = Weft.createHttpServer(address, 0, serverConfig);
        }
        container.mount(server);
        server.start();
        return new ServletServer(container, server, tls != null ? "https" : "http");
    }

    /** The container. */
    public ServletContainer container() {
        return container;
    }

    /** The engine server. */
    public HttpServer server() {
        return server;
    }

    /** The port. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** {@code scheme://127.0.0.1:port} followed by {@code path}. */
    public URI uri(String path) {
        return URI.create(scheme + "://127.0.0.1:" + port() + path);
    }

    /** {@code scheme://localhost:port} followed by {@code path} (for TLS host name checks). */
    public String localhostUrl(String path) {
        return scheme + "://localhost:" + port() + path;
    }

    @Override
    public void close() {
        server.stop(0);
        container.destroy();
    }
}
