package dev.weft.micronaut.server;

import io.micronaut.context.env.Environment;
import io.micronaut.http.server.HttpServerConfiguration;
import io.micronaut.http.ssl.SslConfiguration;

/**
 * The port the server listens on, as Netty's server chooses it: {@code micronaut.server.ssl.port} (default 8443)
 * when TLS is on, else {@code micronaut.server.port} (default 8080); {@code -1} is a random free port, which is
 * also the default when the {@code test} environment is active.
 *
 * @param port the configured port, -1 for a random one
 */
record ListenPort(int port) {

    static ListenPort of(HttpServerConfiguration configuration, SslConfiguration ssl, Environment environment) {
        boolean test = environment.getActiveNames().contains(Environment.TEST);
        if (ssl.isEnabled()) {
            int port = ssl.getPort();
            return new ListenPort(test && port == SslConfiguration.DEFAULT_PORT ? -1 : port);
        }
        Integer port = configuration.getPort().orElse(null);
        if (port == null) {
            port = test ? -1 : HttpServerConfiguration.DEFAULT_PORT;
        }
        return new ListenPort(port);
    }

    /** The port to bind: 0 (any free port) for -1. */
    int bindPort() {
        return port < 0 ? 0 : port;
    }
}
