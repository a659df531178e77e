package dev.weft.httpserver.spi;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsServer;
import com.sun.net.httpserver.spi.HttpServerProvider;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.SystemPropertyConfig;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * Weft as the JDK's {@link HttpServerProvider}, found by {@link java.util.ServiceLoader}: with Weft on the
 * class or module path, {@code HttpServer.create()} returns a Weft server configured from
 * {@code weft.httpserver.*} system properties.
 */
public final class WeftHttpServerProvider extends HttpServerProvider {

    /** Public for {@link java.util.ServiceLoader}. */
    public WeftHttpServerProvider() {
    }

    @Override
    public HttpServer createHttpServer(InetSocketAddress addr, int backlog) throws IOException {
        return Weft.createHttpServer(addr, backlog, SystemPropertyConfig.fromSystemProperties());
    }

    @Override
    public HttpsServer createHttpsServer(InetSocketAddress addr, int backlog) throws IOException {
        return Weft.createHttpsServer(addr, backlog, SystemPropertyConfig.fromSystemProperties());
    }
}
