package dev.weft.httpserver;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsServer;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.spi.WeftHttpServer;
import dev.weft.httpserver.spi.WeftHttpsServer;
import dev.weft.httpserver.spi.WeftServer;
import dev.weft.httpserver.stats.StatsSnapshot;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * Entry point for creating Weft servers with an explicit {@link ServerConfig}; {@code HttpServer.create()}
 * also returns Weft servers, configured from system properties.
 */
public final class Weft {

    private Weft() {
    }

    /**
     * A cleartext server bound to {@code address} (unbound if {@code null}).
     *
     * @param backlog listen backlog; 0 or less uses {@link ServerConfig#backlog()}
     */
    public static HttpServer createHttpServer(InetSocketAddress address, int backlog, ServerConfig config)
            throws IOException {
        WeftHttpServer server = new WeftHttpServer(config);
        if (address != null) {
            server.bind(address, backlog);
        }
        return server;
    }

    /**
     * A TLS server bound to {@code address} (unbound if {@code null}); set its
     * {@link com.sun.net.httpserver.HttpsConfigurator} before starting it.
     */
    public static HttpsServer createHttpsServer(InetSocketAddress address, int backlog, ServerConfig config)
            throws IOException {
        WeftHttpsServer server = new WeftHttpsServer(config);
        if (address != null) {
            server.bind(address, backlog);
        }
        return server;
    }

    /**
     * The statistics of a Weft server.
     *
     * @throws IllegalArgumentException if {@code server} is not a Weft server
     */
    public static StatsSnapshot stats(HttpServer server) {
        return weft(server).stats();
    }

    /**
     * The configuration of a Weft server.
     *
     * @throws IllegalArgumentException if {@code server} is not a Weft server
     */
    public static ServerConfig config(HttpServer server) {
        return weft(server).config();
    }

    private static WeftServer weft(HttpServer server) {
        if (server instanceof WeftServer w) {
            return w;
        }
        throw new IllegalArgumentException("not a Weft server: " + server.getClass().getName());
    }
}
