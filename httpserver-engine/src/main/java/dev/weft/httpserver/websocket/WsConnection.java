package dev.weft.httpserver.websocket;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.config.ThreadsConfig;
import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.httpserver.core.ExchangeTransport;
import dev.weft.httpserver.server.WeftExchanges;
import dev.weft.httpserver.server.WeftServer;
import dev.weft.httpserver.stats.ServerStats;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.List;

/**
 * Opens and runs one session over an accepted opening request, on the calling (exchange) thread, the same
 * way over HTTP/1.1 (the raw connection after {@code 101}) and HTTP/2 (the stream's DATA frames after
 * {@code 200}): negotiates permessage-deflate, answers, runs the reader loop to its end, then closes the
 * exchange (the server ends the TCP connection first, RFC 6455 §7.1.1) and calls {@code onClose} once.
 */
final class WsConnection {

    private static final System.Logger LOG = System.getLogger(WsConnection.class.getName());

    private WsConnection() {
    }

    /**
     * Answers the opening request and runs the session, both on the calling thread.
     *
     * @param config the handler's settings, or null for the server's
     */
    static void run(OpeningRequest request, WebSocketListener listener, WebSocketConfig config) throws IOException {
        serve(answer(request, config), listener);
    }

    /** An opening request answered, with what its session runs with. */
    record Answered(OpeningRequest request, WeftServer server, WebSocketConfig settings, ServerStats stats,
                    DeflateNegotiation.Agreement agreement) {
    }

    /**
     * Negotiates permessage-deflate and answers the opening request on the calling thread: the thread that
     * handles the exchange, so that nothing else touches the response fields while they are sent.
     *
     * @param config the handler's settings, or null for the server's
     */
    static Answered answer(OpeningRequest request, WebSocketConfig config) throws IOException {
        HttpExchange exchange = request.exchange();
        WeftServer server = exchange.getHttpContext().getServer() instanceof WeftServer w ? w : null;
        WebSocketConfig settings = config != null ? config
                : server != null ? server.config().webSocket() : WebSocketConfig.defaults();
        ServerStats stats = server != null ? server.liveStats() : new ServerStats();
        DeflateNegotiation.Agreement agreement = settings.compression()
                ? DeflateNegotiation.negotiate(request.extensionOffers()) : null;
        request.answer(agreement == null ? null : agreement.response());
        return new Answered(request, server, settings, stats, agreement);
    }

    /** Runs the session of an answered opening request to its end, on the calling thread. */
    static void serve(Answered answered, WebSocketListener listener) throws IOException {
        OpeningRequest request = answered.request();
        HttpExchange exchange = request.exchange();
        WeftServer server = answered.server();
        WebSocketConfig settings = answered.settings();
        ServerStats stats = answered.stats();
        DeflateNegotiation.Agreement agreement = answered.agreement();

        ExchangeTransport transport = server != null ? WeftExchanges.transport(exchange) : null;
        if (transport != null) {
            // The session's timers keep its own idle rule; this read timeout is only a backstop behind them.
            transport.tunnelReadTimeout(settings.idleTimeout().plus(settings.closeTimeout()).plusSeconds(1));
            // WsFrameReader and WsFrameWriter buffer for themselves: an idle session keeps no connection buffers.
            transport.releaseBuffers();
        }
        Runnable abort = transport != null
                ? () -> transport.abort(new IOException("WebSocket connection aborted"))
                : exchange::close;
        PerMessageDeflate codec = agreement == null ? null : new PerMessageDeflate(agreement);
        WsSession session = new WsSession(exchange, exchange.getResponseBody(), request.subprotocol(),
                agreement == null ? List.of() : List.of(agreement.response()), settings, stats, codec, abort);
        WsFrameReader frames = new WsFrameReader(exchange.getRequestBody(), settings.maxFrameSize(), codec != null,
                session::received);
        IncomingMessage message = new IncomingMessage(settings.maxMessageSize(), settings.maxFrameSize(), codec);

        stats.webSocketOpened(request.http2());
        SessionTimers timers = new SessionTimers(session);
        SessionSweeper sweeper = SessionSweeper.shared();
        Runnable stopTimers = sweeper.add(timers);
        session.onStateChange(() -> sweeper.wake(timers));
        Runnable unregister = server == null ? () -> { } : server.whenStopping(() -> Thread.ofVirtual()
                .name("weft-ws-stop").start(() -> session.sendCloseQuietly(CloseStatus.GOING_AWAY, "server stopping")));
        CloseStatus status = new CloseStatus(CloseStatus.ABNORMAL, "");
        try {
            long slice = (server != null ? server.config().threads() : ThreadsConfig.defaults()).timeSlice().toNanos();
            status = new MessageReader(session, frames, message, listener, stats, slice).run();
        } finally {
            unregister.run();
            stopTimers.run();
            session.release();
            exchange.close();
            stats.webSocketClosed();
            try {
                listener.onClose(session, status);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "WebSocket listener onClose threw", e);
            }
        }
    }
}
