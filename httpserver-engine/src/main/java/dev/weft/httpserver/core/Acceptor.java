package dev.weft.httpserver.core;

import dev.weft.httpserver.proxyprotocol.ProxyHeaderReader;
import dev.weft.httpserver.stats.ListenerStats;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.ServerStats;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadFactory;

/**
 * Accepts connections on one listening socket and starts a virtual thread per connection.
 *
 * <p>The accept loop runs on a platform, non-daemon thread, so a started server keeps the JVM alive as the
 * JDK's does. Nothing that can block on a client (TLS handshakes, reads) runs on it. It survives a failure
 * to start a connection (e.g. {@link OutOfMemoryError} when the heap is full of sessions): that socket is
 * closed, the failure logged at ERROR, and accepting goes on after a back-off of 10 ms, doubling up to 1 s
 * while failures continue, so that a server short of memory refuses connections rather than dies.
 */
public final class Acceptor implements Runnable {

    private static final System.Logger LOG = System.getLogger(Acceptor.class.getName());
    private static final byte[] SERVICE_UNAVAILABLE = ("HTTP/1.1 503 Service Unavailable\r\n"
            + "Content-Length: 0\r\nConnection: close\r\nRetry-After: 1\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    private static final long MIN_BACKOFF_MILLIS = 10;
    private static final long MAX_BACKOFF_MILLIS = 1000;

    private final ServerSocket listener;
    private final ConnectionRegistry registry;
    private final ServerStats stats;
    private final ListenerStats listenerStats;
    private final TransportSecurity security;
    private final ConnectionServer server;
    /** Reads the PROXY protocol header each connection must start with; null when not required. */
    private final ProxyHeaderReader proxyHeaders;
    private final String name;
    private final ThreadFactory connectionThreads;
    // Accept thread only.
    private long connectionNumber;
    private long backoffMillis;
    private long lastFailureLogNanos;
    private int unloggedFailures;

    /** @param listenerStats the counters of this listener, beside the server's {@code stats} */
    public Acceptor(ServerSocket listener, ConnectionRegistry registry, ServerStats stats, ListenerStats listenerStats,
                    TransportSecurity security, ConnectionServer server) {
        this(listener, registry, stats, listenerStats, security, server, null, null);
    }

    /**
     * @param listenerStats the counters of this listener, beside the server's {@code stats}
     * @param proxyHeaders  reads the PROXY protocol header each connection must start with; null for none
     */
    public Acceptor(ServerSocket listener, ConnectionRegistry registry, ServerStats stats, ListenerStats listenerStats,
                    TransportSecurity security, ConnectionServer server, ProxyHeaderReader proxyHeaders) {
        this(listener, registry, stats, listenerStats, security, server, null, proxyHeaders);
    }

    /** @param connectionThreads makes each connection's thread; null for virtual threads (tests inject failures) */
    Acceptor(ServerSocket listener, ConnectionRegistry registry, ServerStats stats, ListenerStats listenerStats,
             TransportSecurity security, ConnectionServer server, ThreadFactory connectionThreads) {
        this(listener, registry, stats, listenerStats, security, server, connectionThreads, null);
    }

    private Acceptor(ServerSocket listener, ConnectionRegistry registry, ServerStats stats,
                     ListenerStats listenerStats, TransportSecurity security, ConnectionServer server,
                     ThreadFactory connectionThreads, ProxyHeaderReader proxyHeaders) {
        this.proxyHeaders = proxyHeaders;
        this.listener = listener;
        this.registry = registry;
        this.stats = stats;
        this.listenerStats = listenerStats;
        this.security = security;
        this.server = server;
        this.name = "weft-" + listener.getLocalPort();
        this.connectionThreads = connectionThreads != null ? connectionThreads : this::newConnectionThread;
    }

    /** Starts the accept loop on a new non-daemon platform thread. */
    public Thread start() {
        Thread t = Thread.ofPlatform().name(name + "-acceptor").daemon(false).unstarted(this);
        t.start();
        return t;
    }

    @Override
    public void run() {
        while (!listener.isClosed()) {
            Socket socket;
            try {
                socket = listener.accept();
            } catch (IOException e) {
                // A stop closed the listener: a SocketException, or an AsynchronousCloseException from a listener
                // that accepts through its channel. Either ends the loop.
                if (!listener.isClosed()) {
                    LOG.log(Level.WARNING, "accept failed on " + listener.getLocalSocketAddress(), e);
                }
                continue;
            } catch (RuntimeException | Error e) {
                failedStart(null, null, e);
                continue;
            }
            startConnection(socket);
        }
    }

    /** Registers the socket and starts its thread; a failure closes that socket only. */
    private void startConnection(Socket socket) {
        Connection c = null;
        try {
            c = registry.tryOpen(socket, listenerStats);
            if (c == null) {
                refuse(socket);
                return;
            }
            Connection opened = c;
            Thread t = connectionThreads.newThread(() -> handle(opened, socket));
            if (t == null) {
                throw new IllegalStateException("no thread for the connection");
            }
            t.start();
            backoffMillis = 0;
        } catch (RuntimeException | Error e) {
            failedStart(c, socket, e);
        }
    }

    /**
     * A connection's virtual thread, numbered here rather than by a counting {@code ThreadFactory}: stream
     * threads come from a factory without a counter, and the JDK's naming code, compiled for that one
     * shape, would be recompiled each time a new connection's thread took the other.
     */
    private Thread newConnectionThread(Runnable task) {
        return Thread.ofVirtual().name(name + "-conn-" + ++connectionNumber).unstarted(task);
    }

    private void failedStart(Connection c, Socket socket, Throwable e) {
        try {
            if (c != null) {
                c.close();
                registry.closed(c);
            } else if (socket != null) {
                socket.close();
            }
        } catch (IOException | RuntimeException ignored) {
            // the socket is gone either way
        }
        backoffMillis = Math.min(MAX_BACKOFF_MILLIS, Math.max(MIN_BACKOFF_MILLIS, backoffMillis * 2));
        try {
            long now = System.nanoTime();
            if (lastFailureLogNanos == 0 || now - lastFailureLogNanos > 1_000_000_000L) {
                int skipped = unloggedFailures;
                unloggedFailures = 0;
                lastFailureLogNanos = now | 1;
                LOG.log(Level.ERROR, "could not start a connection on " + listener.getLocalSocketAddress()
                        + " (closed it" + (skipped > 0 ? "; " + skipped + " more failures not logged" : "")
                        + "), accepting again in " + backoffMillis + " ms", e);
            } else {
                unloggedFailures++;
            }
        } catch (RuntimeException | Error ignored) {
            // logging may fail for the same reason (no memory); the back-off below still applies
        }
        try {
            Thread.sleep(backoffMillis);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
    }

    private void refuse(Socket socket) {
        stats.connectionRejected();
        try (socket) {
            if (!security.encrypts()) {
                // A fresh socket's send buffer is empty: this small write does not block the acceptor.
                OutputStream out = socket.getOutputStream();
                out.write(SERVICE_UNAVAILABLE);
                out.flush();
                socket.shutdownOutput();
            }
        } catch (IOException ignored) {
            // the client went away; it was refused either way
        }
    }

    /** Reads the connection's PROXY protocol header; false (counted, logged) when it has no valid one in time. */
    private boolean readProxyHeader(Connection c, Socket socket) {
        try {
            c.proxied(proxyHeaders.read(socket));
            return true;
        } catch (IOException e) {
            stats.protocolError(ProtocolError.BAD_PROXY_HEADER);
            LOG.log(Level.DEBUG, () -> "no valid PROXY header from " + c.remoteAddress() + ": " + e);
            return false;
        }
    }

    private void handle(Connection c, Socket socket) {
        try {
            socket.setTcpNoDelay(true);
            if (proxyHeaders != null && !readProxyHeader(c, socket)) {
                return;
            }
            Socket transport;
            try {
                transport = security.secure(socket);
            } catch (IOException e) {
                stats.protocolError(ProtocolError.TLS_HANDSHAKE);
                LOG.log(Level.DEBUG, () -> "TLS handshake with " + c.remoteAddress() + " failed: " + e);
                return;
            }
            c.open(transport);
            server.serve(c);
        } catch (IOException e) {
            LOG.log(Level.DEBUG, () -> "connection " + c.remoteAddress() + " ended: " + e);
        } catch (RuntimeException | Error e) {
            LOG.log(Level.ERROR, "connection " + c.remoteAddress() + " failed", e);
        } finally {
            c.close();
            registry.closed(c);
        }
    }
}
