/*
 * Plaintext benchmark server for the Weft HTTP/1.1 benchmark harness (bench/run-http1.sh).
 *
 * Written only against the JDK's com.sun.net.httpserver API, so the very same class file runs
 * on every provider: which implementation serves the requests is decided purely by the class
 * path / system properties the harness passes (HttpServerProvider.provider() lookup).
 *
 * Deliberately no executor is set: each provider runs with its own default.
 *
 * Usage: java -cp <provider jar>:<classes> PlaintextServer [port]   (default port 8080)
 * Prints exactly one line "ready <provider class name>" on stdout once the server is started.
 */

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.spi.HttpServerProvider;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

public final class PlaintextServer {

    private static final byte[] BODY = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

    private PlaintextServer() {
    }

    public static void main(String[] args) throws IOException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;

        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1024);
        server.createContext("/plaintext", PlaintextServer::handle);
        server.start();

        // Stop the listener on SIGTERM/SIGINT so the port is released promptly.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(0), "plaintext-shutdown"));

        System.out.println("ready " + HttpServerProvider.provider().getClass().getName());
        System.out.flush();
    }

    private static void handle(HttpExchange exchange) throws IOException {
        if (!"GET".equals(exchange.getRequestMethod())) {
            exchange.getResponseHeaders().set("Allow", "GET");
            exchange.sendResponseHeaders(405, -1);
            exchange.close();
            return;
        }
        exchange.getResponseHeaders().set("Content-Type", "text/plain");
        exchange.sendResponseHeaders(200, BODY.length); // fixed length: 13
        try (OutputStream body = exchange.getResponseBody()) {
            body.write(BODY);
        }
    }
}
