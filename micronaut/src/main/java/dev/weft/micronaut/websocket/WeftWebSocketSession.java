package dev.weft.micronaut.websocket;

import dev.weft.httpserver.websocket.CloseStatus;
import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.convert.value.ConvertibleMultiValues;
import io.micronaut.core.convert.value.ConvertibleValues;
import io.micronaut.core.convert.value.MutableConvertibleValues;
import io.micronaut.core.convert.value.MutableConvertibleValuesMap;
import io.micronaut.http.HttpAttributes;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.websocket.CloseReason;
import io.micronaut.websocket.WebSocketSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.Principal;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.reactivestreams.Publisher;

/**
 * Micronaut's {@link WebSocketSession} over an engine session: sends go through the engine's session (safe from
 * any thread; {@code sendAsync} queues, {@code send} queues when subscribed), closing sends a close frame with
 * the given reason, and the id is the client's {@code Sec-WebSocket-Key}, as on Netty.
 */
final class WeftWebSocketSession implements WebSocketSession {

    private static final Logger LOG = LoggerFactory.getLogger(WeftWebSocketSession.class);

    private final dev.weft.httpserver.websocket.WebSocketSession engine;
    private final HttpRequest<?> request;
    private final ConvertibleValues<Object> uriVariables;
    private final OpenSessions sessions;
    private final MessageCodec codec;
    private final MutableConvertibleValues<Object> attributes = new MutableConvertibleValuesMap<>();

    WeftWebSocketSession(dev.weft.httpserver.websocket.WebSocketSession engine, HttpRequest<?> request,
                         Map<String, Object> uriVariables, OpenSessions sessions, MessageCodec codec) {
        this.engine = engine;
        this.request = request;
        this.uriVariables = ConvertibleValues.of(uriVariables);
        this.sessions = sessions;
        this.codec = codec;
    }

    @Override
    public String getId() {
        String key = request.getHeaders().get("Sec-WebSocket-Key");
        return key != null ? key : Integer.toHexString(System.identityHashCode(this));
    }

    @Override
    public MutableConvertibleValues<Object> getAttributes() {
        return attributes;
    }

    @Override
    public boolean isOpen() {
        return engine.isOpen();
    }

    @Override
    public boolean isWritable() {
        return engine.isOpen();
    }

    @Override
    public boolean isSecure() {
        return engine.sslSession() != null;
    }

    @Override
    public Set<? extends WebSocketSession> getOpenSessions() {
        return sessions.open();
    }

    @Override
    public java.net.URI getRequestURI() {
        return request.getUri();
    }

    @Override
    public String getProtocolVersion() {
        return "13";
    }

    @Override
    public Optional<String> getSubprotocol() {
        return Optional.ofNullable(engine.subprotocol());
    }

    @Override
    public ConvertibleMultiValues<String> getRequestParameters() {
        return request.getParameters();
    }

    @Override
    public ConvertibleValues<Object> getUriVariables() {
        return uriVariables;
    }

    @Override
    public Optional<Principal> getUserPrincipal() {
        return request.getAttribute(HttpAttributes.PRINCIPAL, Principal.class);
    }

    @Override
    public <T> Publisher<T> send(T message, MediaType mediaType) {
        return Mono.defer(() -> Mono.fromFuture(sendAsync(message, mediaType)));
    }

    @Override
    public <T> CompletableFuture<T> sendAsync(T message, MediaType mediaType) {
        MessageCodec.Outgoing out;
        try {
            out = codec.encode(message, mediaType);
        } catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(ex);
        }
        CompletableFuture<Void> sent = out.text() != null ? engine.sendTextAsync(out.text())
                : engine.sendBinaryAsync(out.binary());
        return sent.thenApply(ignored -> message);
    }

    @Override
    public CompletableFuture<?> sendPingAsync(byte[] content) {
        CompletableFuture<Void> sent = new CompletableFuture<>();
        Thread.ofVirtual().name("weft-ws-ping").start(() -> {
            try {
                engine.sendPing(ByteBuffer.wrap(content));
                sent.complete(null);
            } catch (IOException | RuntimeException ex) {
                sent.completeExceptionally(ex);
            }
        });
        return sent;
    }

    @Override
    public void close() {
        close(CloseReason.NORMAL);
    }

    @Override
    public void close(CloseReason closeReason) {
        try {
            engine.close(closeReason.getCode(), CloseStatus.truncateReason(
                    closeReason.getReason() == null ? "" : closeReason.getReason()));
        } catch (IOException ex) {
            LOG.debug("WebSocket session {} could not send its close frame: {}", getId(), ex.toString());
        }
    }

    @Override
    public MutableConvertibleValues<Object> put(CharSequence key, Object value) {
        return attributes.put(key, value);
    }

    @Override
    public MutableConvertibleValues<Object> remove(CharSequence key) {
        return attributes.remove(key);
    }

    @Override
    public MutableConvertibleValues<Object> clear() {
        return attributes.clear();
    }

    @Override
    public Set<String> names() {
        return attributes.names();
    }

    @Override
    public Collection<Object> values() {
        return attributes.values();
    }

    @Override
    public <T> Optional<T> get(CharSequence name, ArgumentConversionContext<T> conversionContext) {
        return attributes.get(name, conversionContext);
    }

    @Override
    public String toString() {
        return "WebSocket session " + getId() + " on " + request.getPath();
    }
}
