package dev.weft.httpserver.proxy;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.core.ExchangeTransport;
import dev.weft.httpserver.spi.WeftExchanges;
import dev.weft.httpserver.stats.ServerStats;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@code CONNECT} tunnel (RFC 9110 §9.3.6; over HTTP/2, RFC 9113 §8.5): connects to the target, answers
 * {@code 200}, then relays bytes both ways until both directions have ended. The exchange's thread pumps
 * target → client; a virtual thread pumps client → target.
 *
 * <p>Half-close: when the client ends its side (TCP FIN on HTTP/1.1, {@code END_STREAM} on HTTP/2) the target
 * gets a FIN and may go on answering; when the target ends its side the client gets everything it sent, then
 * the end (the HTTP/1.1 connection closes; HTTP/2 sends {@code END_STREAM}) — the exchange API cannot
 * half-close an HTTP/1.1 client connection. An {@link IdleWatch} closes a tunnel that moved no byte in either
 * direction for {@link ProxyConfig#idleTimeout()}.
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
        private final String authority;
        private final OriginConnection origin;
        private final ServerStats stats;
        private final IdleWatch watch;
        private final AtomicLong bytes = new AtomicLong();
        private final AtomicInteger running = new AtomicInteger(2);

        Relay(HttpExchange exchange, String authority, OriginConnection origin, ServerStats stats) {
            this.exchange = exchange;
            this.authority = authority;
            this.origin = origin;
            this.stats = stats;
            this.watch = new IdleWatch(config.idleTimeout(), origin::close, "weft-proxy-tunnel-idle");
        }

        void run() {
            Thread.ofVirtual().name("weft-proxy-tunnel-up").start(this::clientToOrigin);
            boolean clean = false;
            try {
                clean = originToClient();
            } finally {
                if (clean) {
                    exchange.close();
                } else {
                    origin.close();
                    WeftExchanges.transport(exchange).abort(new IOException("tunnel to " + authority + " broken"));
                }
                finished();
            }
        }

        /** @return whether the target ended its side cleanly */
        private boolean originToClient() {
            try {
                pump(origin.input(), exchange.getResponseBody());
                return true;
            } catch (IOException e) {
                LOG.log(Level.DEBUG, () -> "tunnel to " + authority + (watch.fired() ? " idle, closed" : " failed: " + e));
                return false;
            }
        }

        private void clientToOrigin() {
            try {
                pump(exchange.getRequestBody(), origin.output());
                origin.shutdownOutput();
            } catch (IOException e) {
                // The client went away or the target stopped reading: nothing more can go this way.
                LOG.log(Level.DEBUG, () -> "tunnel to " + authority + ", client side ended: " + e);
                origin.close();
            } finally {
                finished();
            }
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

        private void finished() {
            if (running.decrementAndGet() == 0) {
                watch.close();
                origin.close();
                stats.tunnelClosed(bytes.get());
                LOG.log(Level.DEBUG, () -> "tunnel to " + authority + " closed after " + bytes.get() + " bytes");
            }
        }
    }
}
