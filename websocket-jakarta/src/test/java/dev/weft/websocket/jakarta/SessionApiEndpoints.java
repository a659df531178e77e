package dev.weft.websocket.jakarta;

import jakarta.websocket.EncodeException;
import jakarta.websocket.Encoder;
import jakarta.websocket.OnMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;

import java.io.IOException;
import java.io.Writer;

/** Endpoints of the session API test. */
final class SessionApiEndpoints {

    private SessionApiEndpoints() {
    }

    /** A shout. */
    public record Shout(String text) {
    }

    /** Encodes a shout in capitals. */
    public static class ShoutEncoder implements Encoder.Text<Shout> {
        @Override
        public String encode(Shout s) throws EncodeException {
            return s.text().toUpperCase(java.util.Locale.ROOT) + "!";
        }
    }

    /** Sends each message, encoded, to every open session with the async remote. */
    @ServerEndpoint(value = "/broadcast", encoders = ShoutEncoder.class)
    public static class Broadcast {
        @OnMessage
        public void message(String m, Session session) {
            for (Session s : session.getOpenSessions()) {
                s.getAsyncRemote().sendObject(new Shout(m), result -> {
                    if (!result.isOK()) {
                        throw new IllegalStateException(result.getException());
                    }
                });
            }
        }
    }

    /** Answers a number n with n characters written through getSendWriter (several parts). */
    @ServerEndpoint("/writer")
    public static class Streamed {
        @OnMessage
        public void message(int n, Session session) throws IOException {
            try (Writer w = session.getBasicRemote().getSendWriter()) {
                for (int i = 0; i < n; i++) {
                    w.write('a' + i % 26);
                }
            }
        }
    }
}
