package dev.weft.httpserver.proxy;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.core.ExchangeTransport;
import dev.weft.httpserver.server.WeftExchanges;
import dev.weft.httpserver.stats.ServerStats;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@code CONNECT} tunnel (RFC 9110 §9.3.6; over HTTP/2, RFC 9113 §8.5): connects to the target, answers
 * {@code 200}, then relays bytes both ways until both directions have ended. The exchange's thread pumps
 * target → client; a virtual thread pumps client → target.
 *
 * <p>Each direction half-closes on its own, like TCP. When the client ends its side (TCP FIN on HTTP/1.1,
 * {@code END_STREAM} on HTTP/2) the target gets a FIN and may go on answering. When the target ends its side
 * the client gets everything it sent, then the end ({@link ExchangeTransport#shutdownTunnelOutput()}: a FIN,
 * after TLS {@code close_notify} on a secured connection, or {@code END_STREAM}), and may go on sending; the
 * exchange closes once both have ended. An error on either side breaks the whole tunnel: the target
 * connection is reset, the client's aborted (HTTP/1.1: closed; HTTP/2: {@code RST_STREAM CONNECT_ERROR}).
 * An {@link IdleWatch} ends a tunnel that moved no byte in either direction for
 * {@link ProxyConfig#idleTimeout()}, half-closed or not, by breaking it.
 */
final class Tunnel {

    private static final System.Logger LOG = System.getLogger(Tunnel.class.getName());
    private static final int BUFFER = 16 * 1024;

    private final ProxyConfig config;

    Tunnel(ProxyConfig config) {
        this.config = config;
    }

    void open(HttpExchange exchange, String authority, List<InetSocketAddress> targets, ServerStats stats)
            throws IOException {
        OriginConnection origin;
        try {
            origin = OriginConnection.open(targets, config.connectTimeout(), 0);
        } catch (SocketTimeoutException e) {
            Forwarder.upstreamFailed(exchange, stats, 504, "connecting to " + authority + " timed out", e);
            return;
        } catch (IOException e) {
            Forwarder.upstreamFailed(exchange, stats, 502, "cannot connect to " + authority, e);
            return;
        }
        try {
            ExchangeTransport transport = WeftExchanges.transport(exchange);
            // The idle watch below bounds the tunnel as a whole; a per-read limit on the client side would end
            // a long one-way transfer (a download) while the client has nothing to send.
            transport.tunnelReadTimeout(Duration.ZERO);
            exchange.sendResponseHeaders(200, 0);
        } catch (IOException | RuntimeException e) {
            origin.close();
            throw e;
        }
        stats.tunnelOpened();
        LOG.log(Level.DEBUG, () -> "tunnel to " + authority + " (" + origin.remoteAddress() + ") opened for "
                + exchange.getRemoteAddress());
        new Relay(exchange, authority, origin, stats).run();
    }

    /** The state of one open tunnel, shared by its two pumps. */
    private final class Relay {
        private final HttpExchange exchange;
        private final ExchangeTransport transport;
        private final String authority;
        private final OriginConnection origin;
        private final ServerStats stats;
        private final IdleWatch watch;
        private final AtomicLong bytes = new AtomicLong();

        Relay(HttpExchange exchange, String authority, OriginConnection origin, ServerStats stats) {
            this.exchange = exchange;
            this.transport = WeftExchanges.transport(exchange);
            this.authority = authority;
            this.origin = origin;
            this.stats = stats;
            this.watch = new IdleWatch(config.idleTimeout(), this::idle, "weft-proxy-tunnel-idle");
        }

        void run() {
            Up up = new Up();
            Thread upThread = Thread.ofVirtual().name("weft-proxy-tunnel-up").start(up);
            boolean clean = false;
            try {
                // Once the target has ended, the client's side may still send: wait for it (the idle
                // watch bounds the wait by breaking the tunnel, which fails the pump's read).
                clean = originToClient() && joined(upThread) && up.clean;
            } finally {
                if (clean) {
                    exchange.close();
                } else {
                    origin.reset();
                    transport.abort(new IOException("tunnel to " + authority + " broken"));
                    // Both sides are broken now, so the pump ends soon.
                    joinUninterruptibly(upThread);
                }
                watch.close();
                origin.close();
                stats.tunnelClosed(bytes.get());
                String how = clean ? "" : " (broken)";
                LOG.log(Level.DEBUG, () -> "tunnel to " + authority + " closed after " + bytes.get() + " bytes" + how);
            }
        }

        /** @return whether the target ended its side cleanly and the client was told */
        private boolean originToClient() {
            try {
                pump(origin.input(), exchange.getResponseBody());
                transport.shutdownTunnelOutput();
                return true;
            } catch (IOException e) {
                LOG.log(Level.DEBUG, () -> "tunnel to " + authority + (watch.fired() ? " idle" : " failed: " + e));
                return false;
            }
        }

        /** The client → target pump. */
        private final class Up implements Runnable {
            /** Whether the client ended its side cleanly and the target got the FIN; read after join. */
            private boolean clean;

            @Override
            public void run() {
                try {
                    pump(exchange.getRequestBody(), origin.output());
                    origin.shutdownOutput();
                    clean = true;
                } catch (IOException e) {
                    // The client went away or the target stopped reading: nothing more can go this way, and
                    // the target learns of it at once (RFC 9113 §8.5: a TCP RST).
                    LOG.log(Level.DEBUG, () -> "tunnel to " + authority + ", client side ended: " + e);
                    origin.reset();
                }
            }
        }

        /** The idle watch's action: breaks the tunnel, which fails whatever blocks on either side. */
        private void idle() {
            origin.close();
            transport.abort(new IOException("tunnel to " + authority + " idle"));
        }

        /** Copies until the end of {@code in}, flushing whenever nothing more is buffered. */
        private void pump(InputStream in, OutputStream out) throws IOException {
            byte[] buf = new byte[BUFFER];
            for (int n; (n = in.read(buf)) >= 0; ) {
                out.write(buf, 0, n);
                if (in.available() == 0) {
                    out.flush();
                }
                bytes.addAndGet(n);
                watch.touch();
            }
            out.flush();
        }
    }

    /** Waits for {@code t} to end; false if this thread was interrupted first (a forced stop). */
    private static boolean joined(Thread t) {
        try {
            t.join();
            return true;
        } catch (InterruptedException e) {
            return false;
        }
    }

    /** Waits for {@code t} to end, keeping an interrupt for the caller. */
    private static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (t.isAlive()) {
            try {
                t.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
