package dev.weft.httpserver;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsServer;
import dev.weft.httpserver.config.Listener;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.FileRegion;
import dev.weft.httpserver.forwarded.ClientOrigin;
import dev.weft.httpserver.server.WeftContexts;
import dev.weft.httpserver.server.WeftExchanges;
import dev.weft.httpserver.server.WeftHttpServer;
import dev.weft.httpserver.server.WeftHttpsServer;
import dev.weft.httpserver.server.WeftServer;
import dev.weft.httpserver.stats.StatsSnapshot;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * What Weft offers beyond the JDK's {@code com.sun.net.httpserver} API: servers created with an explicit
 * {@link ServerConfig} ({@code HttpServer.create()} also returns Weft servers, configured from system
 * properties), their statistics and configuration, a graceful shutdown, breaking an exchange off, and sending
 * file regions without copying.
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
     * A cleartext server (an {@link HttpServer}, whatever its listeners) bound to every one of {@code listeners}, or
     * to none: if one cannot be bound, those already bound are closed again. {@code getAddress()} is the first
     * listener's. Exchanges on a TLS listener are {@link com.sun.net.httpserver.HttpsExchange}s.
     *
     * @throws java.net.BindException   naming the address and port that could not be bound
     * @throws IllegalArgumentException if {@code listeners} is empty or has more than 64
     */
    public static HttpServer createServer(ServerConfig config, List<Listener> listeners) throws IOException {
        if (listeners.isEmpty()) {
            throw new IllegalArgumentException("no listener");
        }
        WeftHttpServer server = new WeftHttpServer(config);
        server.addListeners(List.copyOf(listeners));
        return server;
    }

    /**
     * Binds one more listener of a Weft server that has not started, sharing its contexts, handlers, limits and
     * statistics: the server accepts on all of them once started, and its stop closes them all. Exchanges on a
     * TLS listener are {@link com.sun.net.httpserver.HttpsExchange}s even on a cleartext {@link HttpServer}. The
     * first listener of an unbound server becomes its address (it cannot be {@code bind}-ed then). If the
     * listener cannot be bound, the server is left as it was.
     *
     * @throws java.net.BindException   naming the address and port that could not be bound
     * @throws IllegalStateException    if the server has started
     * @throws IllegalArgumentException if {@code server} is not a Weft server, or would have more than 64 listeners
     */
    public static void addListener(HttpServer server, Listener listener) throws IOException {
        weft(server).addListeners(List.of(listener));
    }

    /** Whether {@code server} is a Weft server (created here or by {@code HttpServer.create()} with Weft). */
    public static boolean isWeft(HttpServer server) {
        return server instanceof WeftServer;
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

    /**
     * Stops accepting connections and closes idle ones at once, lets in-flight exchanges finish (their
     * responses say {@code Connection: close}, HTTP/2 connections get {@code GOAWAY}), and completes with
     * {@code true} when all are done, or {@code false} if a {@code stop(delay)} called meanwhile had to close
     * connections still busy. Does not block; {@code stop(0)} cuts the wait short.
     *
     * @throws IllegalArgumentException if {@code server} is not a Weft server
     */
    public static CompletableFuture<Boolean> shutdownGracefully(HttpServer server) {
        return weft(server).shutdownGracefully();
    }

    /**
     * Breaks an exchange off, from any thread: a response not yet complete is cut so that no client can take
     * it for a complete one (HTTP/1.1 closes the connection, HTTP/2 resets the stream); one not yet started
     * becomes a {@code 500} if it still can. A response already complete is left as it is. The exchange is
     * over afterwards, as if closed. For handlers that finish exchanges asynchronously and meet a failure
     * after the response was committed.
     *
     * @throws IllegalArgumentException if {@code exchange} is not a Weft exchange
     */
    public static void abort(HttpExchange exchange, Throwable cause) {
        WeftExchanges.abort(exchange, cause);
    }

    /**
     * Writes {@code count} bytes of {@code file}, from {@code position}, as the next bytes of the response body of
     * {@code exchange}, whose headers have been sent. On cleartext HTTP/1.1 they go from the file to the socket
     * with {@link FileChannel#transferTo} (zero-copy, never through the heap), after whatever is buffered before
     * them and under the same write timeout and minimum data rate as written bytes; a region small enough to
     * share one write with what is buffered is copied into it instead. Everywhere else they are copied into the
     * response body: over TLS and HTTP/2, when a filter replaced the response stream ({@code setStreams}), and
     * for an exchange of another server. Either way the body is framed as if the bytes had been written (the
     * length given to {@code sendResponseHeaders} counts them, a HEAD response drops them) and stays open; the
     * file is not closed and its position does not move.
     *
     * @throws IOException              as a write of the same bytes would (headers not sent, more bytes than the
     *                                  length, the client went away); an {@link java.io.EOFException} if the
     *                                  file ends before the region does
     * @throws IllegalArgumentException if {@code position} or {@code count} is negative
     */
    public static void sendFile(HttpExchange exchange, FileChannel file, long position, long count)
            throws IOException {
        WeftExchanges.sendFile(exchange, new FileRegion(file, position, count));
    }

    /**
     * Where {@code exchange}'s request really came from: the client's address, the scheme and host it used
     * and a path prefix a proxy stripped, taken from a trusted proxy's {@code Forwarded}/{@code X-Forwarded-*}
     * fields when {@code forwarded.enabled} is on (and from a PROXY protocol header when
     * {@code forwarded.proxyProtocol} is), else from the connection; resolved once per exchange.
     * {@code getRemoteAddress()} already reports its address. For an exchange of another server, its
     * connection's facts.
     */
    public static ClientOrigin origin(HttpExchange exchange) {
        return WeftExchanges.origin(exchange);
    }

    /**
     * Where an integration runs application work it starts off an exchange's own thread (an asynchronous
     * servlet dispatch, a reactive pipeline, a listener callback), so that it runs where the server runs its
     * handlers: on the executor set with {@code setExecutor}; else, with {@code threads.virtual} off, on the
     * server's platform threads (once it has started); else on a new virtual thread per task.
     *
     * @throws IllegalArgumentException if {@code server} is not a Weft server
     */
    public static Executor applicationExecutor(HttpServer server) {
        return weft(server).applicationExecutor();
    }

    /**
     * Whether {@code exchange} was cut short through no fault of the application's or the server's: its client
     * broke it (went away, reset it, sent a malformed, oversized or too slow body, stopped reading), or a stop of
     * the server closed its connection while it was in progress. Such events are counted in the statistics; an
     * integration logs a failure of such an exchange at {@code DEBUG}, not as an error.
     *
     * @throws IllegalArgumentException if {@code exchange} is not a Weft exchange
     */
    public static boolean isCutShort(HttpExchange exchange) {
        return WeftExchanges.isCutShort(exchange);
    }

    /**
     * Tells the server that the exchange's own thread has just come back from a wait that started at
     * {@code sinceNanos} ({@link System#nanoTime()}) for something other than its socket, such as the application's
     * work on another thread: if it did wait, the time does not count as time the thread held its carrier, so it
     * does not give way to other connections' threads for it ({@code threads.timeSlice}). For adapters that run
     * only an exchange's I/O on its thread ({@link #runInline}). Does nothing on another thread.
     *
     * @throws IllegalArgumentException if {@code exchange} is not a Weft exchange
     */
    public static void threadWaited(HttpExchange exchange, long sinceNanos) {
        WeftExchanges.threadWaited(exchange, sinceNanos);
    }

    /**
     * Makes the server call the handler of {@code context} on the exchange's own thread (the connection's
     * virtual thread, or the HTTP/2 stream's) even when it runs other handlers on platform threads or on an
     * executor: for an adapter that does only the exchange's I/O there and starts the application's work on
     * {@link #applicationExecutor}, as Weft's Spring WebFlux adapter does. The context's filters and
     * authenticator run there too.
     *
     * @throws IllegalArgumentException if {@code context} is not a Weft server's
     */
    public static void runInline(HttpContext context) {
        WeftContexts.runInline(context);
    }

    private static WeftServer weft(HttpServer server) {
        if (server instanceof WeftServer w) {
            return w;
        }
        throw new IllegalArgumentException("not a Weft server: " + server.getClass().getName());
    }
}
