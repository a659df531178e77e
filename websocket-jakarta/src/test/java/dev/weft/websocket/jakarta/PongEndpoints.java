package dev.weft.websocket.jakarta;

import dev.weft.httpserver.testing.WebSocketTestServers;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.OnMessage;
import jakarta.websocket.PongMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * Endpoints with pong handlers, recording "kind:payload in hex" in {@link #EVENTS}; a text message
 * {@code ping:data} makes them send a ping carrying {@code data}.
 */
final class PongEndpoints {

    /** The pongs the endpoints received, in order. */
    static final WebSocketTestServers.Events EVENTS = new WebSocketTestServers.Events();

    private PongEndpoints() {
    }

    private static String hex(PongMessage pong) {
        ByteBuffer b = pong.getApplicationData().duplicate();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static void pingOnRequest(Session session, String text) {
        if (text.startsWith("ping:")) {
            try {
                session.getBasicRemote().sendPing(ByteBuffer.wrap(text.substring(5).getBytes(StandardCharsets.UTF_8)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** {@code @OnMessage} with a {@link PongMessage}. */
    @ServerEndpoint("/pong/annotated")
    public static class Annotated {
        @OnMessage
        public void pong(PongMessage pong) {
            EVENTS.add("annotated:" + hex(pong));
        }

        @OnMessage
        public void text(String text, Session session) {
            pingOnRequest(session, text);
        }
    }

    /** A {@code MessageHandler.Whole<PongMessage>}, its type read from its class. */
    public static class Handler extends Endpoint {
        @Override
        public void onOpen(Session session, EndpointConfig config) {
            session.addMessageHandler(new MessageHandler.Whole<PongMessage>() {
                @Override
                public void onMessage(PongMessage pong) {
                    EVENTS.add("handler:" + hex(pong));
                }
            });
            session.addMessageHandler(String.class, (MessageHandler.Whole<String>) text -> pingOnRequest(session, text));
        }
    }
}
