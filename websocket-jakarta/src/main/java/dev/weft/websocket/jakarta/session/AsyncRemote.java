package dev.weft.websocket.jakarta.session;

import dev.weft.httpserver.websocket.WebSocketSession;
import dev.weft.websocket.jakarta.coding.Encoded;
import jakarta.websocket.EncodeException;
import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.SendHandler;
import jakarta.websocket.SendResult;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Non-blocking sends of one session, queued by the engine (bounded by its {@code maxQueuedBytes}); a send not
 * written within the send timeout fails with a {@link java.util.concurrent.TimeoutException}.
 */
final class AsyncRemote implements RemoteEndpoint.Async {

    private final WeftSession session;
    private final WebSocketSession ws;
    private final BasicRemote basic;
    private volatile long sendTimeout;

    AsyncRemote(WeftSession session, WebSocketSession ws, BasicRemote basic, long sendTimeout) {
        this.session = session;
        this.ws = ws;
        this.basic = basic;
        this.sendTimeout = sendTimeout;
    }

    @Override
    public long getSendTimeout() {
        return sendTimeout;
    }

    @Override
    public void setSendTimeout(long timeoutMillis) {
        sendTimeout = timeoutMillis;
    }

    @Override
    public void sendText(String text, SendHandler handler) {
        report(sendText(text), handler);
    }

    @Override
    public Future<Void> sendText(String text) {
        Objects.requireNonNull(text, "text");
        session.touch();
        return limited(ws.sendTextAsync(text));
    }

    @Override
    public Future<Void> sendBinary(ByteBuffer data) {
        Objects.requireNonNull(data, "data");
        session.touch();
        return limited(ws.sendBinaryAsync(data));
    }

    @Override
    public void sendBinary(ByteBuffer data, SendHandler handler) {
        report(sendBinary(data), handler);
    }

    @Override
    public Future<Void> sendObject(Object data) {
        try {
            Encoded e = session.coders().encode(data);
            return e.text() != null ? sendText(e.text()) : sendBinary(e.binary());
        } catch (EncodeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void sendObject(Object data, SendHandler handler) {
        report(sendObject(data), handler);
    }

    private CompletableFuture<Void> limited(CompletableFuture<Void> f) {
        long t = sendTimeout;
        return t > 0 ? f.orTimeout(t, TimeUnit.MILLISECONDS) : f;
    }

    private void report(Future<Void> f, SendHandler handler) {
        Objects.requireNonNull(handler, "handler");
        ((CompletableFuture<Void>) f).whenComplete((v, t) -> handler.onResult(
                t == null ? new SendResult(session) : new SendResult(session, unwrap(t))));
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
    }

    @Override
    public void setBatchingAllowed(boolean allowed) {
        basic.setBatchingAllowed(allowed);
    }

    @Override
    public boolean getBatchingAllowed() {
        return basic.getBatchingAllowed();
    }

    @Override
    public void flushBatch() {
        // nothing is held back
    }

    @Override
    public void sendPing(ByteBuffer applicationData) throws IOException {
        basic.sendPing(applicationData);
    }

    @Override
    public void sendPong(ByteBuffer applicationData) throws IOException {
        basic.sendPong(applicationData);
    }
}
