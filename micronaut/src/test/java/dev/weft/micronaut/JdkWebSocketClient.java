package dev.weft.micronaut;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A session of the JDK's {@code java.net.http.WebSocket}, with what it received kept in order: text as
 * {@code String}, binary as {@code byte[]}; the server's close code and reason in {@link #closed}.
 */
final class JdkWebSocketClient implements WebSocket.Listener {

    record Close(int code, String reason) {
    }

    final CompletableFuture<Close> closed = new CompletableFuture<>();
    private final BlockingQueue<Object> received = new LinkedBlockingQueue<>();
    private final StringBuilder text = new StringBuilder();
    private final java.io.ByteArrayOutputStream binary = new java.io.ByteArrayOutputStream();
    final WebSocket socket;

    JdkWebSocketClient(HttpClient client, URI uri) {
        socket = client.newWebSocketBuilder().buildAsync(uri, this).join();
    }

    /** The next message received, within 20 seconds. */
    Object next() throws InterruptedException {
        Object message = received.poll(20, TimeUnit.SECONDS);
        assertThat(message).as("a message within 20 seconds").isNotNull();
        return message;
    }

    Close awaitClose() throws Exception {
        return closed.get(20, TimeUnit.SECONDS);
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        text.append(data);
        if (last) {
            received.add(text.toString());
            text.setLength(0);
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
        byte[] bytes = new byte[data.remaining()];
        data.get(bytes);
        binary.writeBytes(bytes);
        if (last) {
            received.add(binary.toByteArray());
            binary.reset();
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        closed.complete(new Close(statusCode, reason));
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        closed.completeExceptionally(error);
    }
}
