package dev.weft.spring.boot.websocket;

import dev.weft.httpserver.websocket.CloseStatus;
import dev.weft.httpserver.websocket.WebSocketListener;
import dev.weft.httpserver.websocket.WebSocketSession;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.web.reactive.socket.HandshakeInfo;
import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.WebSocketMessage;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.util.context.ContextView;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The engine's listener of one session, running a WebFlux {@link WebSocketHandler} on it: opens a
 * {@link WeftWebSocketSession}, subscribes the handler in the upgrade request's Reactor context, feeds received
 * messages to the session's {@code receive()} (blocking while there is no demand), and ends the session with the
 * handler: 1000 when it completes, 1011 when it fails. When the peer ends the session first, the handler is
 * cancelled once the close status and the end of {@code receive()} have been signalled.
 *
 * <p>Threads: the callbacks run one at a time on the session's thread; the handler's signals arrive on
 * whatever thread its operators use.
 */
final class WebSocketHandlerListener implements WebSocketListener {

    private static final Log logger = LogFactory.getLog(WebSocketHandlerListener.class);

    private final WebSocketHandler handler;
    private final HandshakeInfo handshakeInfo;
    private final DataBufferFactory bufferFactory;
    private final ContextView context;
    private final Disposable.Swap handling = Disposables.swap();
    private volatile @Nullable WeftWebSocketSession session;

    /** @param context the Reactor context of the upgrade request, which the handler is subscribed with */
    WebSocketHandlerListener(WebSocketHandler handler, HandshakeInfo handshakeInfo, DataBufferFactory bufferFactory,
                             ContextView context) {
        this.handler = handler;
        this.handshakeInfo = handshakeInfo;
        this.bufferFactory = bufferFactory;
        this.context = context;
    }

    @Override
    public void onOpen(WebSocketSession engineSession) {
        WeftWebSocketSession s = new WeftWebSocketSession(engineSession, handshakeInfo, bufferFactory);
        session = s;
        handling.update(handler.handle(s)
                .checkpoint(handshakeInfo.getUri() + " [WeftRequestUpgradeStrategy]")
                .contextWrite(context)
                .subscribe(null, error -> handlerFailed(s, error), () -> handlerCompleted(s)));
    }

    private static void handlerCompleted(WeftWebSocketSession s) {
        s.inbound().discard();
        if (s.isOpen()) {
            s.close(org.springframework.web.reactive.socket.CloseStatus.NORMAL)
                    .subscribe(null, error -> logger.debug("Closing " + s + " failed", error));
        }
    }

    private static void handlerFailed(WeftWebSocketSession s, Throwable error) {
        s.inbound().discard();
        if (!s.isOpen()) {
            // Typically a send that failed because the peer closed or vanished.
            logger.debug(s + ": handler ended with an error after the session closed", error);
            return;
        }
        logger.warn(s + ": handler failed; closing the session with 1011", error);
        s.close(org.springframework.web.reactive.socket.CloseStatus.SERVER_ERROR)
                .subscribe(null, closeError -> logger.debug("Closing " + s + " failed", closeError));
    }

    @Override
    public void onText(WebSocketSession engineSession, String message) throws InterruptedException {
        deliver(WebSocketMessage.Type.TEXT, bufferFactory.wrap(message.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public void onBinary(WebSocketSession engineSession, ByteBuffer message) throws InterruptedException {
        deliver(WebSocketMessage.Type.BINARY, bufferFactory.wrap(message));
    }

    @Override
    public void onPong(WebSocketSession engineSession, ByteBuffer payload) throws InterruptedException {
        deliver(WebSocketMessage.Type.PONG, bufferFactory.wrap(payload));
    }

    private void deliver(WebSocketMessage.Type type, org.springframework.core.io.buffer.DataBuffer payload)
            throws InterruptedException {
        WeftWebSocketSession s = session;
        if (s != null) {
            s.inbound().deliver(new WebSocketMessage(type, payload));
        }
    }

    @Override
    public void onClose(WebSocketSession engineSession, CloseStatus status) {
        WeftWebSocketSession s = session;
        if (s != null) {
            s.closed(status);
        }
        handling.dispose();
    }

    @Override
    public void onError(WebSocketSession engineSession, Throwable error) {
        WeftWebSocketSession s = session;
        if (s != null) {
            logger.debug(s + ": session failed", error);
            s.failed(error);
        }
    }
}
