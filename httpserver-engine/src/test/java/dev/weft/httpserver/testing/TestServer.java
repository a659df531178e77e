package dev.weft.httpserver.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.StatsSnapshot;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * A started Weft server on {@code 127.0.0.1} and an ephemeral port, for one test or one test class.
 * {@link #close()} stops it at once.
 */
public final class TestServer implements AutoCloseable {

    private final HttpServer server;

    private TestServer(HttpServer server) {
        this.server = server;
    }

    /** A server with the default configuration and {@link #echoHandler()} at {@code /}. */
    public static TestServer start() throws IOException {
        return builder().start();
    }

    /** A server with this configuration and {@link #echoHandler()} at {@code /}. */
    public static TestServer start(ServerConfig config) throws IOException {
        return builder().config(config).start();
    }

    /** A builder starting from the default configuration and no contexts. */
    public static Builder builder() {
        return new Builder();
    }

    /** The port the server listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** {@code http://127.0.0.1:port} followed by {@code path}. */
    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port() + path);
    }

    /** The server itself. */
    public HttpServer server() {
        return server;
    }

    /** The server's counters now. */
    public StatsSnapshot stats() {
        return Weft.stats(server);
    }

    /**
     * Waits until the counters satisfy {@code condition} and returns that snapshot (connection threads update
     * them a moment after the client sees the effect); fails the test with the last snapshot if they never do.
     */
    public StatsSnapshot awaitStats(Predicate<StatsSnapshot> condition) {
        return Await.value("the server's statistics to satisfy the condition", this::stats, condition);
    }

    /** A connection to this server through the raw test client. */
    public RawHttpClient connect() throws IOException {
        return RawHttpClient.connect(port());
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /**
     * Reads the whole request body and answers {@code 200} with a plain-text description of the request:
     * one {@code name: value} line each for method, URI, protocol, every request header (as
     * {@code header <Name>: <value>}, names sorted) and the number of body bytes read.
     */
    public static HttpHandler echoHandler() {
        return exchange -> {
            long bodyLength = drain(exchange.getRequestBody());
            respond(exchange, 200, describe(exchange, bodyLength));
        };
    }

    /** Reads the whole request body and answers {@code 200} with exactly those bytes. */
    public static HttpHandler bodyEchoHandler() {
        return exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            sendFixed(exchange, 200, body);
        };
    }

    /** The text {@link #echoHandler()} answers with. */
    public static String describe(HttpExchange exchange, long bodyLength) {
        StringBuilder s = new StringBuilder();
        s.append("method: ").append(exchange.getRequestMethod()).append('\n');
        s.append("uri: ").append(exchange.getRequestURI()).append('\n');
        s.append("protocol: ").append(exchange.getProtocol()).append('\n');
        Map<String, List<String>> sorted = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        sorted.putAll(exchange.getRequestHeaders());
        sorted.forEach((name, values) -> values.forEach(
                value -> s.append("header ").append(name).append(": ").append(value).append('\n')));
        s.append("body-length: ").append(bodyLength).append('\n');
        return s.toString();
    }

    /** Sends {@code status} with the UTF-8 text as a fixed-length body and closes the exchange. */
    public static void respond(HttpExchange exchange, int status, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        sendFixed(exchange, status, bytes);
    }

    /**
     * Sends {@code status} with exactly these bytes ({@code -1}, no body, when empty) and closes the exchange.
     * Nothing is written when there is no body.
     */
    public static void sendFixed(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            if (body.length > 0) {
                out.write(body);
            }
        }
    }

    /** Reads a stream to its end, returning how many bytes it had. */
    public static long drain(InputStream in) throws IOException {
        byte[] buf = new byte[8192];
        long total = 0;
        for (int n; (n = in.read(buf)) >= 0; ) {
            total += n;
        }
        return total;
    }

    /** Configuration and contexts of a server to start. */
    public static final class Builder {
        private ServerConfig config = ServerConfig.defaults();
        private final Map<String, HttpHandler> contexts = new LinkedHashMap<>();
        private java.util.concurrent.Executor executor;

        private Builder() {
        }

        /** Runs handlers on this executor instead of inline on the connection's thread. */
        public Builder executor(java.util.concurrent.Executor executor) {
            this.executor = executor;
            return this;
        }

        public Builder config(ServerConfig config) {
            this.config = config;
            return this;
        }

        /** Adds a context; without any, {@link #echoHandler()} serves {@code /}. */
        public Builder handle(String path, HttpHandler handler) {
            contexts.put(path, handler);
            return this;
        }

        public TestServer start() throws IOException {
            HttpServer server = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, config);
            if (contexts.isEmpty()) {
                server.createContext("/", echoHandler());
            }
            contexts.forEach(server::createContext);
            server.setExecutor(executor);
            server.start();
            return new TestServer(server);
        }
    }
}
