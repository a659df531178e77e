package dev.weft.httpserver.http2;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.TestCertificates;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * A started cleartext Weft server (HTTP/2 by prior knowledge) and a started TLS one (h2 by ALPN), both on
 * {@code 127.0.0.1} with the same contexts and configuration; {@link #close()} stops both at once.
 */
final class Http2TestServers implements AutoCloseable {

    private final HttpServer cleartext;
    private final HttpsServer tls;

    private Http2TestServers(HttpServer cleartext, HttpsServer tls) {
        this.cleartext = cleartext;
        this.tls = tls;
    }

    static Http2TestServers start(ServerConfig config, Map<String, HttpHandler> contexts) throws IOException {
        HttpServer cleartext = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, config);
        HttpsServer tls = Weft.createHttpsServer(new InetSocketAddress("127.0.0.1", 0), 0, config);
        tls.setHttpsConfigurator(new HttpsConfigurator(TestCertificates.get().serverContext()));
        contexts.forEach((path, handler) -> {
            cleartext.createContext(path, handler);
            tls.createContext(path, handler);
        });
        cleartext.start();
        tls.start();
        return new Http2TestServers(cleartext, tls);
    }

    HttpServer server(boolean overTls) {
        return overTls ? tls : cleartext;
    }

    int port(boolean overTls) {
        return server(overTls).getAddress().getPort();
    }

    /** {@code http://127.0.0.1:port} or {@code https://127.0.0.1:port} followed by {@code pathAndQuery}. */
    String url(boolean overTls, String pathAndQuery) {
        return (overTls ? "https" : "http") + "://127.0.0.1:" + port(overTls) + pathAndQuery;
    }

    @Override
    public void close() {
        cleartext.stop(0);
        tls.stop(0);
    }
}
