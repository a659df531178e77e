package dev.weft.websocket.jakarta;

import dev.weft.httpserver.testing.WebSocketTestServers;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.OnMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.HexFormat;

/** Endpoints that read messages as streams, recording each read as it returns in {@link #EVENTS}. */
final class StreamEndpoints {

    /** What the endpoints read, in order: "reader:chars", "reader-end", "stream:hex", "stream-end", "failed:...". */
    static final WebSocketTestServers.Events EVENTS = new WebSocketTestServers.Events();

    private StreamEndpoints() {
    }

    /** {@code @OnMessage} with a {@link Reader}: records each read and answers with the number of chars read. */
    @ServerEndpoint("/stream/reader")
    public static class ReaderEndpoint {
        @OnMessage
        public String text(Reader reader) throws IOException {
            char[] buf = new char[1024];
            int total = 0;
            try {
                for (int n; (n = reader.read(buf)) >= 0; ) {
                    String chunk = new String(buf, 0, n);
                    EVENTS.add("reader:" + chunk);
                    if (chunk.contains("boom")) {
                        throw new IllegalStateException("reader endpoint bug");
                    }
                    total += n;
                }
            } catch (IOException e) {
                EVENTS.add("failed:" + e.getMessage());
                throw e;
            }
            EVENTS.add("reader-end");
            return "read " + total + " chars";
        }
    }

    /** A {@code MessageHandler.Whole<InputStream>} that records each read. */
    public static class InputStreamEndpoint extends Endpoint {
        @Override
        public void onOpen(Session session, EndpointConfig config) {
            session.addMessageHandler(InputStream.class, (MessageHandler.Whole<InputStream>) in -> {
                byte[] buf = new byte[1024];
                try {
                    for (int n; (n = in.read(buf)) >= 0; ) {
                        EVENTS.add("stream:" + HexFormat.of().formatHex(buf, 0, n));
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                EVENTS.add("stream-end");
            });
        }
    }
}
