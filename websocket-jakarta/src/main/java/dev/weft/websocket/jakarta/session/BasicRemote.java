package dev.weft.websocket.jakarta.session;

import dev.weft.httpserver.websocket.WebSocketSession;
import dev.weft.websocket.jakarta.coding.Encoded;
import jakarta.websocket.EncodeException;
import jakarta.websocket.RemoteEndpoint;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Blocking sends of one session: each returns once its frame is written, so a slow peer holds the sender back
 * (the engine's back-pressure). Batching is not done: every send is written at once.
 */
final class BasicRemote implements RemoteEndpoint.Basic {

    private final WeftSession session;
    private final WebSocketSession ws;
    private volatile boolean batching;

    BasicRemote(WeftSession session, WebSocketSession ws) {
        this.session = session;
        this.ws = ws;
    }

    @Override
    public void sendText(String text) throws IOException {
        Objects.requireNonNull(text, "text");
        session.touch();
        ws.sendText(text);
    }

    @Override
    public void sendBinary(ByteBuffer data) throws IOException {
        Objects.requireNonNull(data, "data");
        session.touch();
        ws.sendBinary(data);
    }

    @Override
    public void sendText(String partialMessage, boolean isLast) throws IOException {
        Objects.requireNonNull(partialMessage, "partialMessage");
        session.touch();
        ws.sendText(partialMessage, isLast);
    }

    @Override
    public void sendBinary(ByteBuffer partialByte, boolean isLast) throws IOException {
        Objects.requireNonNull(partialByte, "partialByte");
        session.touch();
        ws.sendBinary(partialByte, isLast);
    }

    @Override
    public OutputStream getSendStream() {
        session.touch();
        return new PartStreams.Binary(ws);
    }

    @Override
    public Writer getSendWriter() {
        session.touch();
        return new PartStreams.Text(ws);
    }

    @Override
    public void sendObject(Object data) throws IOException, EncodeException {
        Encoded e = session.coders().encode(data);
        if (e.text() != null) {
            sendText(e.text());
        } else {
            sendBinary(e.binary());
        }
    }

    @Override
    public void setBatchingAllowed(boolean allowed) {
        batching = allowed;
    }

    @Override
    public boolean getBatchingAllowed() {
        return batching;
    }

    @Override
    public void flushBatch() {
        // nothing is held back
    }

    @Override
    public void sendPing(ByteBuffer applicationData) throws IOException {
        checkControl(applicationData);
        ws.sendPing(applicationData == null ? ByteBuffer.allocate(0) : applicationData);
    }

    @Override
    public void sendPong(ByteBuffer applicationData) throws IOException {
        checkControl(applicationData);
        ws.sendPong(applicationData == null ? ByteBuffer.allocate(0) : applicationData);
    }

    static void checkControl(ByteBuffer data) {
        if (data != null && data.remaining() > 125) {
            throw new IllegalArgumentException("a control frame carries at most 125 bytes");
        }
    }
}
