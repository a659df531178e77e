package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpsConfigurator;
import dev.weft.httpserver.config.Listener;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.Acceptor;
import dev.weft.httpserver.core.ConnectionRegistry;
import dev.weft.httpserver.core.ExchangeDispatcher;
import dev.weft.httpserver.core.TransportSecurity;
import dev.weft.httpserver.proxyprotocol.ProxyHeaderReader;
import dev.weft.httpserver.stats.ListenerStats;
import dev.weft.httpserver.stats.ServerStats;
import dev.weft.httpserver.tls.TlsTransport;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.ServerSocketChannel;
import java.util.function.Supplier;

/**
 * One listening socket of a server, with how its connections are secured, whether they may speak HTTP/2, its
 * counters and its accept loop.
 */
final class BoundListener {

    private static final System.Logger LOG = System.getLogger(BoundListener.class.getName());

    /**
     * Where and how to listen.
     *
     * @param backlog 0 or less for the server's {@code backlog}
     * @param tls     the TLS configuration of each new connection, or null for cleartext
     * @param http2   whether connections may speak HTTP/2 ({@code h2} on TLS, {@code h2c} on cleartext)
     * @param proxyProtocol whether each connection starts with a PROXY protocol header
     */
    record Endpoint(InetSocketAddress address, int backlog, Supplier<HttpsConfigurator> tls, boolean http2,
                    boolean proxyProtocol) {

        /** The endpoint of {@code listener} on a server with this configuration. */
        static Endpoint of(Listener listener, ServerConfig server) {
            HttpsConfigurator tls = listener.tls();
            return new Endpoint(listener.address(), listener.backlog(), tls != null ? () -> tls : null,
                    listener.offersHttp2(server.http2()), listener.requiresProxyProtocol(server.forwarded()));
        }
    }

    private final ServerSocket socket;
    private final InetSocketAddress bound;
    private final Endpoint endpoint;
    private final ListenerStats stats;
    private Thread acceptor;

    private BoundListener(ServerSocket socket, InetSocketAddress bound, Endpoint endpoint, ListenerStats stats) {
        this.socket = socket;
        this.bound = bound;
        this.endpoint = endpoint;
        this.stats = stats;
    }

    /**
     * Binds a socket to the endpoint's address.
     *
     * @throws BindException naming the address if it cannot be bound (its message keeps the cause's, e.g.
     *                       "Address already in use")
     */
    static BoundListener bind(Endpoint endpoint, ServerConfig config, ServerStats stats) throws IOException {
        // Cleartext connections are accepted through a channel, so that each socket has one: file regions go
        // from the file to it without copying (FileChannel.transferTo). The sockets are still used in blocking
        // mode, through their streams. TLS has no use for the channel: its bytes are encrypted on the heap.
        ServerSocket s = endpoint.tls() != null ? new ServerSocket() : ServerSocketChannel.open().socket();
        InetSocketAddress address = endpoint.address();
        try {
            s.setReuseAddress(true);
            s.bind(address, endpoint.backlog() > 0 ? endpoint.backlog() : config.backlog());
        } catch (IOException e) {
            s.close();
            BindException named = new BindException(e.getMessage() + ": " + address.getHostString() + ":"
                    + address.getPort());
            named.initCause(e);
            throw named;
        }
        InetSocketAddress bound = (InetSocketAddress) s.getLocalSocketAddress();
        return new BoundListener(s, bound, endpoint, stats.listener(endpoint.tls() != null ? "https" : "http", bound));
    }

    /** Starts accepting connections, served by {@code dispatcher}, on a thread of its own. */
    void start(ServerConfig config, ConnectionRegistry connections, ServerStats serverStats,
               ExchangeDispatcher dispatcher) {
        TransportSecurity security = endpoint.tls() == null ? TransportSecurity.NONE
                : new TlsTransport(endpoint.tls(), config.tlsHandshakeTimeout(), serverStats, endpoint.http2());
        ProxyHeaderReader proxyHeaders = endpoint.proxyProtocol()
                ? new ProxyHeaderReader(config.headerReadTimeout()) : null;
        acceptor = new Acceptor(socket, connections, serverStats, stats, security,
                new ProtocolSelector(dispatcher, endpoint.http2()), proxyHeaders).start();
        LOG.log(Level.DEBUG, () -> "Weft listening on " + name());
    }

    /** The address bound. */
    InetSocketAddress address() {
        return bound;
    }

    /** E.g. {@code https://0.0.0.0:8443}. */
    String name() {
        return (endpoint.tls() != null ? "https://" : "http://") + bound.getHostString() + ":" + bound.getPort();
    }

    /** Stops accepting; idempotent. */
    void close() {
        try {
            socket.close();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, () -> "closing listener " + name() + " failed: " + e);
        }
    }

    /** Waits until the accept loop has ended, or {@code deadlineNanos} ({@link System#nanoTime()}). */
    void awaitAcceptorEnd(long deadlineNanos) throws InterruptedException {
        Thread t = acceptor;
        long left = deadlineNanos - System.nanoTime();
        if (t != null && left > 0) {
            t.join(java.time.Duration.ofNanos(left));
        }
    }
}
