package dev.weft.httpserver.core;

import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.ServerStats;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Accepts connections on one listening socket and starts a virtual thread per connection.
 *
 * <p>The accept loop runs on a platform, non-daemon thread, so a started server keeps the JVM alive as the
 * JDK's does. Nothing that can block on a client (TLS handshakes, reads) runs on it.
 */
public final class Acceptor implements Runnable {

    private static final System.Logger LOG = System.getLogger(Acceptor.class.getName());
    private static final byte[] SERVICE_UNAVAILABLE = ("HTTP/1.1 503 Service Unavailable\r\n"
            + "Content-Length: 0\r\nConnection: close\r\nRetry-After: 1\r\n\r\n").getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket listener;
    private final ConnectionRegistry registry;
    private final ServerStats stats;
    private final TransportSecurity security;
    private final ConnectionServer server;
    private final AtomicLong ids = new AtomicLong();
    private final String name;

    public Acceptor(ServerSocket listener, ConnectionRegistry registry, ServerStats stats,
                    TransportSecurity security, ConnectionServer server) {
        this.listener = listener;
        this.registry = registry;
        this.stats = stats;
        this.security = security;
        this.server = server;
        this.name = "weft-" + listener.getLocalPort();
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
            } catch (SocketException e) {
                if (!listener.isClosed()) {
                    LOG.log(Level.WARNING, "accept failed on " + listener.getLocalSocketAddress(), e);
                }
                continue;
            } catch (IOException e) {
                LOG.log(Level.WARNING, "accept failed on " + listener.getLocalSocketAddress(), e);
                continue;
            }
            Connection c = registry.tryOpen(socket);
            if (c == null) {
                refuse(socket);
                continue;
            }
            Thread.ofVirtual().name(name + "-conn-" + ids.incrementAndGet()).start(() -> handle(c, socket));
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

    private void handle(Connection c, Socket socket) {
        try {
            socket.setTcpNoDelay(true);
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
