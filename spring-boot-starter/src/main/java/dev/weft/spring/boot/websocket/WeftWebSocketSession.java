package dev.weft.spring.boot.websocket;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DefaultDataBuffer;
import org.springframework.web.reactive.socket.CloseStatus;
import org.springframework.web.reactive.socket.HandshakeInfo;
import org.springframework.web.reactive.socket.WebSocketMessage;
import org.springframework.web.reactive.socket.adapter.AbstractWebSocketSession;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A WebFlux {@code WebSocketSession} over a Weft engine session, over HTTP/1.1 or HTTP/2 alike.
 *
 * <p>{@link #receive()} is fed by the engine's listener callbacks, which block while the subscriber has no
 * demand (see {@link InboundMessages}): back-pressure reaches the peer. {@link #send} writes one message at a
 * time with the engine's blocking sends, on a virtual thread, and requests the next message only when the
 * previous one is written: a slow peer slows the publisher down. The attribute
 * {@link #HTTP_VERSION_ATTRIBUTE} tells which protocol carries the session.
 */
public final class WeftWebSocketSession
        extends AbstractWebSocketSession<dev.weft.httpserver.websocket.WebSocketSession> {

    /** Session attribute: the HTTP version carrying the session, {@code HTTP/1.1} or {@code HTTP/2.0}. */
    public static final String HTTP_VERSION_ATTRIBUTE = "dev.weft.websocket.http-version";

    /** Blocking engine calls run here: a new virtual thread per task, so Reactor's threads never block. */
    private static final Scheduler BLOCKING = Schedulers.fromExecutor(
            task -> Thread.ofVirtual().name("weft-websocket-send").start(task));

    /** Longest close reason in UTF-8 bytes (RFC 6455 §5.5: 125-byte control payload less the 2-byte code). */

    private static final AtomicLong ids = new AtomicLong();

    private final InboundMessages inbound = new InboundMessages();
    private final Sinks.One<CloseStatus> closeStatus = Sinks.one();

    WeftWebSocketSession(dev.weft.httpserver.websocket.WebSocketSession session, HandshakeInfo info,
                         DataBufferFactory bufferFactory) {
        super(session, Long.toHexString(ids.incrementAndGet()), info, bufferFactory);
        getAttributes().put(HTTP_VERSION_ATTRIBUTE, session.httpVersion());
    }

    /** The engine's session. */
    public dev.weft.httpserver.websocket.WebSocketSession getNativeSession() {
        return getDelegate();
    }

    /** The HTTP version carrying the session: {@code HTTP/1.1}, or {@code HTTP/2.0} (RFC 8441). */
    public String httpVersion() {
        return getDelegate().httpVersion();
    }

    @Override
    public Flux<WebSocketMessage> receive() {
        return Flux.from(inbound);
    }

    @Override
    public Mono<Void> send(Publisher<WebSocketMessage> messages) {
        return Flux.from(messages)
                .concatMap(message -> Mono.<Void>fromCallable(() -> write(message)).subscribeOn(BLOCKING), 1)
                .doOnDiscard(WebSocketMessage.class, WebSocketMessage::release)
                .then();
    }

    private @Nullable Void write(WebSocketMessage message) throws IOException {
        var session = getDelegate();
        try {
            DataBuffer payload = message.getPayload();
            switch (message.getType()) {
                case TEXT -> session.sendText(payload.toString(StandardCharsets.UTF_8));
                case BINARY -> session.sendBinary(bytes(payload));
                case PING -> session.sendPing(bytes(payload));
                case PONG -> session.sendPong(bytes(payload));
            }
        } finally {
            message.release();
        }
        return null;
    }

    /** The readable bytes of {@code buffer}, without a copy when it is one heap array. */
    private static ByteBuffer bytes(DataBuffer buffer) {
        int length = buffer.readableByteCount();
        if (buffer instanceof DefaultDataBuffer heap && heap.getNativeBuffer().hasArray()) {
            ByteBuffer array = heap.getNativeBuffer();
            return ByteBuffer.wrap(array.array(), array.arrayOffset() + heap.readPosition(), length);
        }
        ByteBuffer copy = ByteBuffer.allocate(length);
        buffer.toByteBuffer(buffer.readPosition(), copy, 0, length);
        return copy;
    }

    @Override
    public boolean isOpen() {
        return getDelegate().isOpen();
    }

    /**
     * Starts the close handshake with {@code status}. Codes that may not be sent (1005, 1006, 1015, or outside
     * RFC 6455's ranges) are sent as 1000; a reason longer than 123 UTF-8 bytes is cut. Messages received
     * after this are dropped.
     */
    @Override
    public Mono<Void> close(CloseStatus status) {
        return Mono.<Void>fromCallable(() -> {
            inbound.discard();
            int code = dev.weft.httpserver.websocket.CloseStatus.isSendable(status.getCode())
                    ? status.getCode() : CloseStatus.NORMAL.getCode();
            getDelegate().close(code,
                    dev.weft.httpserver.websocket.CloseStatus.truncateReason(status.getReason()));
            return null;
        }).subscribeOn(BLOCKING);
    }

    @Override
    public Mono<CloseStatus> closeStatus() {
        return closeStatus.asMono();
    }

    // Called by the engine's listener (WebSocketHandlerListener), on the session's thread.

    InboundMessages inbound() {
        return inbound;
    }

    void closed(dev.weft.httpserver.websocket.CloseStatus status) {
        closeStatus.tryEmitValue(CloseStatus.create(status.code(), status.reason()));
        inbound.complete();
    }

    void failed(Throwable error) {
        inbound.fail(error);
    }
}
