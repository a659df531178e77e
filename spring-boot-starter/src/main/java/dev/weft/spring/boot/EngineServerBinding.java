package dev.weft.spring.boot;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.Listener;
import dev.weft.httpserver.config.ServerConfig;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.boot.web.server.WebServerException;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The listeners of a {@link WeftWebServer}'s engine server: binds them all or none, and names them as Spring
 * Boot's servers do in their start line.
 */
final class EngineServerBinding {

    private EngineServerBinding() {
    }

    /**
     * A new engine server bound to {@code address} (TLS if {@code https} is not null), then to each of
     * {@code additional}; if one cannot be bound, those bound are closed again.
     *
     * @throws PortInUseException naming the port taken
     * @throws WebServerException if a listener cannot be bound otherwise
     */
    static HttpServer bind(InetSocketAddress address, HttpsConfigurator https, List<Listener> additional,
                           ServerConfig config) {
        HttpServer created;
        try {
            if (https == null) {
                created = Weft.createHttpServer(address, 0, config);
            } else {
                HttpsServer httpsServer = Weft.createHttpsServer(address, 0, config);
                httpsServer.setHttpsConfigurator(https);
                created = httpsServer;
            }
        } catch (IOException ex) {
            PortInUseException.throwIfPortBindingException(ex, address::getPort);
            throw new WebServerException("Unable to start Weft on " + address, ex);
        }
        for (Listener listener : additional) {
            try {
                Weft.addListener(created, listener);
            } catch (IOException | RuntimeException ex) {
                created.stop(0);
                PortInUseException.throwIfPortBindingException(ex, () -> listener.address().getPort());
                throw new WebServerException("Unable to start Weft on " + listener, ex);
            }
        }
        return created;
    }

    /** The port of each listener of {@code server}, the first first. */
    static List<Integer> ports(HttpServer server) {
        return Weft.stats(server).listeners().stream().map(l -> l.address().getPort()).toList();
    }

    /** E.g. {@code ports 8080 (http), 8443 (https)}, or {@code port 8080 (http)}. */
    static String portsDescription(HttpServer server) {
        var listeners = Weft.stats(server).listeners();
        return "port" + (listeners.size() == 1 ? " " : "s ") + listeners.stream()
                .map(l -> l.address().getPort() + " (" + l.scheme() + ")").collect(Collectors.joining(", "));
    }
}
