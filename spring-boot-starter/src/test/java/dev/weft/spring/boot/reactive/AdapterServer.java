package dev.weft.spring.boot.reactive;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.StatsSnapshot;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;

/** A real Weft server on 127.0.0.1 and a random port, serving one {@link WeftHttpHandlerAdapter} at "/". */
final class AdapterServer implements AutoCloseable {

    private final HttpServer server;
    private final HttpContext context;
    private final String scheme;

    private AdapterServer(HttpServer server, HttpHandler handler, WeftCompression compression, String scheme) {
        this.server = server;
        this.scheme = scheme;
        this.context = server.createContext("/", new WeftHttpHandlerAdapter(handler, compression));
        server.start();
    }

    static AdapterServer start(RouterFunction<ServerResponse> routes) {
        return start(RouterFunctions.toHttpHandler(routes), WeftCompression.DISABLED);
    }

    static AdapterServer start(HttpHandler handler) {
        return start(handler, WeftCompression.DISABLED);
    }

    static AdapterServer start(HttpHandler handler, WeftCompression compression) {
        try {
            HttpServer server = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0,
                    ServerConfig.defaults());
            return new AdapterServer(server, handler, compression, "http");
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** An HTTPS server that asks for (but does not require) a client certificate. */
    static AdapterServer startHttps(HttpHandler handler, SSLContext sslContext) {
        try {
            HttpsServer server = Weft.createHttpsServer(new InetSocketAddress("127.0.0.1", 0), 0,
                    ServerConfig.defaults());
            server.setHttpsConfigurator(new HttpsConfigurator(sslContext) {
                @Override
                public void configure(HttpsParameters params) {
                    SSLParameters parameters = getSSLContext().getDefaultSSLParameters();
                    parameters.setWantClientAuth(true);
                    params.setSSLParameters(parameters);
                }
            });
            return new AdapterServer(server, handler, WeftCompression.DISABLED, "https");
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    HttpContext context() {
        return context;
    }

    /** The server's counters now. */
    StatsSnapshot stats() {
        return Weft.stats(server);
    }

    int port() {
        return server.getAddress().getPort();
    }

    URI uri(String pathAndQuery) {
        return URI.create(scheme + "://127.0.0.1:" + port() + pathAndQuery);
    }

    /** An HTTP/1.1 client (no h2c upgrade attempt). */
    static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
