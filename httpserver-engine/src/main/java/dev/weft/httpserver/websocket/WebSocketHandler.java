package dev.weft.httpserver.websocket;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.config.WebSocketConfig;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * An {@link HttpHandler} that accepts WebSocket sessions on its context, over HTTP/1.1 ({@code GET} with
 * {@code Upgrade: websocket}, RFC 6455) and over HTTP/2 (extended {@code CONNECT}, RFC 8441) alike, and runs
 * each session on a virtual thread until it ends: the exchange's own, or a new one when the handler is called on
 * a platform thread (the server's handler threads, or an executor's), which is then free at once.
 *
 * <pre>{@code
 * server.createContext("/echo", WebSocketHandler.builder(handshake -> new WebSocketListener() {
 *     public void onText(WebSocketSession s, String m) throws IOException { s.sendText(m); }
 * }).subprotocols("chat").build());
 * }</pre>
 *
 * <p>Requests that are not an opening handshake are answered: {@code 426} with {@code Upgrade: websocket}
 * when there is no upgrade at all, {@code 426} with {@code Sec-WebSocket-Version: 13} for another version,
 * {@code 400} for a malformed handshake (bad key, wrong method), {@code 403} when the origin check or the
 * listener factory refuses.
 */
public final class WebSocketHandler implements HttpHandler {

    private static final System.Logger LOG = System.getLogger(WebSocketHandler.class.getName());

    private final Function<WebSocketHandshake, WebSocketListener> listeners;
    private final List<String> subprotocols;
    private final Predicate<String> originCheck;
    private final WebSocketConfig config;

    private WebSocketHandler(Builder b) {
        this.listeners = b.listeners;
        this.subprotocols = List.copyOf(b.subprotocols);
        this.originCheck = b.originCheck;
        this.config = b.config;
    }

    /**
     * A builder of a handler whose sessions get their listener from {@code listeners}; it may return
     * {@code null} to refuse a handshake with {@code 403}.
     */
    public static Builder builder(Function<WebSocketHandshake, WebSocketListener> listeners) {
        return new Builder(listeners);
    }

    /** Whether {@code exchange} asks to open a WebSocket (HTTP/1.1 upgrade or HTTP/2 extended CONNECT). */
    public static boolean isUpgradeRequest(HttpExchange exchange) {
        return exchange.getProtocol().startsWith("HTTP/2") ? Rfc8441Handshake.isAttempt(exchange)
                : Rfc6455Handshake.isAttempt(exchange);
    }

    /**
     * Answers the opening handshake on {@code exchange} and runs the session on the calling thread until it
     * ends; for code that has its own routing (the Spring adapter). A request that is not a valid opening
     * handshake is answered with {@code 400} or {@code 426}, and {@code false} is returned.
     *
     * @param subprotocol the subprotocol to answer with (one the client offered), or {@code null}
     * @param config      limits of the session; {@code null} for the server's
     */
    public static boolean upgrade(HttpExchange exchange, WebSocketListener listener, String subprotocol,
                                  WebSocketConfig config) throws IOException {
        Objects.requireNonNull(listener, "listener");
        OpeningRequest request = check(exchange);
        if (request == null) {
            return false;
        }
        request.selectSubprotocol(subprotocol);
        WsConnection.run(request, listener, config);
        return true;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        OpeningRequest request = check(exchange);
        if (request == null) {
            return;
        }
        if (!originCheck.test(request.origin())) {
            LOG.log(Level.DEBUG, () -> "WebSocket origin " + request.origin() + " refused");
            new HandshakeRejection(403, "origin not allowed").answer(exchange);
            return;
        }
        request.preselect(subprotocols);
        WebSocketListener listener = listeners.apply(request);
        if (listener == null) {
            new HandshakeRejection(403, "WebSocket refused").answer(exchange);
            return;
        }
        if (Thread.currentThread().isVirtual()) {
            WsConnection.run(request, listener, config);
            return;
        }
        // Called on a platform thread (the server's handler threads, or an executor's): a session lives long and
        // mostly waits, so it moves to a virtual thread and gives the platform thread back at once. The answer is
        // sent first, here: once this returns, the code that called the handler (a servlet container finishing
        // its response, say) may touch the response fields. The exchange stays open until the session ends.
        WsConnection.Answered answered = WsConnection.answer(request, config);
        Thread.ofVirtual().name("weft-websocket-session").start(() -> {
            try {
                WsConnection.serve(answered, listener);
            } catch (IOException e) {
                LOG.log(Level.DEBUG, () -> "WebSocket session from " + exchange.getRemoteAddress() + " failed: " + e);
                exchange.close();
            }
        });
    }

    /**
     * Checks the opening handshake; answers and returns null when it is not one: {@code 426} without any
     * upgrade, {@code 400} or {@code 426} for a malformed one.
     */
    private static OpeningRequest check(HttpExchange exchange) throws IOException {
        try {
            boolean http2 = exchange.getProtocol().startsWith("HTTP/2");
            if (!isUpgradeRequest(exchange)) {
                // HTTP/2 has no Upgrade field (RFC 9113 §8.2.2): there a client needs an extended CONNECT.
                throw http2 ? new HandshakeRejection(426, "a WebSocket needs an extended CONNECT (RFC 8441)")
                        : new HandshakeRejection(426, "this resource speaks WebSocket only", "Upgrade", "websocket");
            }
            return http2 ? Rfc8441Handshake.check(exchange) : Rfc6455Handshake.check(exchange);
        } catch (HandshakeRejection r) {
            LOG.log(Level.DEBUG, () -> "WebSocket handshake from " + exchange.getRemoteAddress() + " rejected with "
                    + r.status() + ": " + r.getMessage());
            r.answer(exchange);
            return null;
        }
    }

    /** Builder of a {@link WebSocketHandler}. */
    public static final class Builder {
        private final Function<WebSocketHandshake, WebSocketListener> listeners;
        private List<String> subprotocols = List.of();
        private Predicate<String> originCheck = origin -> true;
        private WebSocketConfig config;

        private Builder(Function<WebSocketHandshake, WebSocketListener> listeners) {
            this.listeners = Objects.requireNonNull(listeners, "listeners");
        }

        /**
         * The subprotocols this endpoint speaks, in order of preference: the first one the client also
         * offered is preselected in the {@link WebSocketHandshake}. Default none.
         */
        public Builder subprotocols(String... supported) {
            subprotocols = List.of(supported);
            return this;
        }

        /**
         * Which {@code Origin} values are accepted (the value is {@code null} when the client sent none, as
         * non-browser clients do); others get {@code 403}. Default: all.
         */
        public Builder originCheck(Predicate<String> allowed) {
            originCheck = Objects.requireNonNull(allowed, "allowed");
            return this;
        }

        /** Limits of this handler's sessions; default: the server's {@code ServerConfig.webSocket()}. */
        public Builder config(WebSocketConfig settings) {
            config = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** The handler. */
        public WebSocketHandler build() {
            return new WebSocketHandler(this);
        }
    }
}
