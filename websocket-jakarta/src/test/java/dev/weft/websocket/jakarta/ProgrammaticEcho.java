package dev.weft.websocket.jakarta;

import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.Session;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/** A programmatic endpoint: text comes back as {@code prog:text}, binary as it came. */
public class ProgrammaticEcho extends Endpoint {

    @Override
    public void onOpen(Session session, EndpointConfig config) {
        session.addMessageHandler(String.class, (MessageHandler.Whole<String>) text -> send(() ->
                session.getBasicRemote().sendText("prog:" + text)));
        session.addMessageHandler(ByteBuffer.class, (MessageHandler.Whole<ByteBuffer>) data -> send(() ->
                session.getBasicRemote().sendBinary(data)));
    }

    private interface Send {
        void run() throws IOException;
    }

    private static void send(Send s) {
        try {
            s.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
