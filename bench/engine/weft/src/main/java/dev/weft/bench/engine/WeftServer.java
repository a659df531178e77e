package dev.weft.bench.engine;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.spi.HttpServerProvider;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;

/**
 * The Weft engine peer of bench/run-latency.sh: written only against the JDK's
 * {@code com.sun.net.httpserver} API, like bench/plaintext/PlaintextServer.java; the Weft engine jar on the
 * class path (its {@code META-INF/services} entry) makes {@link HttpServer#create} return Weft's server.
 * No executor is set, so Weft runs each handler inline on the connection's virtual thread (its default).
 *
 * <p>{@code GET /plaintext}: 13 bytes of text/plain. {@code GET /api/report?size=n}: {@link Report#json(int)}.
 * Usage: {@code java -cp weft-httpserver.jar:target/classes:target/lib/* dev.weft.bench.engine.WeftServer PORT};
 * binds 127.0.0.1 (backlog 1024) and prints {@code ready <provider class> <port>} once it listens.
 */
public final class WeftServer {

    private WeftServer() {
    }

    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1024);
        server.createContext("/plaintext", WeftServer::plaintext);
        server.createContext("/api/report", WeftServer::report);
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(0), "weft-shutdown"));
        System.out.println("ready " + HttpServerProvider.provider().getClass().getName() + " "
                + server.getAddress().getPort());
        System.out.flush();
    }

    private static void plaintext(HttpExchange exchange) throws IOException {
        if (rejected(exchange, "/plaintext")) {
            return;
        }
        send(exchange, 200, "text/plain", Report.HELLO);
    }

    private static void report(HttpExchange exchange) throws IOException {
        if (rejected(exchange, "/api/report")) {
            return;
        }
        int size = Report.sizeFromQuery(exchange.getRequestURI().getRawQuery());
        if (size < 0) {
            send(exchange, 400, "text/plain", ("size must be 1.." + Report.MAX_SIZE + "\n").getBytes());
            return;
        }
        send(exchange, 200, Report.CONTENT_TYPE, Report.json(size));
    }

    /** Answers 404 for a path below the context but not equal to it, 405 for methods other than GET. */
    private static boolean rejected(HttpExchange exchange, String path) throws IOException {
        if (!exchange.getRequestURI().getPath().equals(path)) {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
            return true;
        }
        if (!"GET".equals(exchange.getRequestMethod())) {
            exchange.getResponseHeaders().set("Allow", "GET");
            exchange.sendResponseHeaders(405, -1);
            exchange.close();
            return true;
        }
        return false;
    }

    private static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length); // fixed length
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
