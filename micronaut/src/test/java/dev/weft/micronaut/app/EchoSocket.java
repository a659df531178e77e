package dev.weft.micronaut.app;

import io.micronaut.http.MediaType;
import io.micronaut.websocket.CloseReason;
import io.micronaut.websocket.WebSocketBroadcaster;
import io.micronaut.websocket.WebSocketSession;
import io.micronaut.websocket.annotation.OnClose;
import io.micronaut.websocket.annotation.OnMessage;
import io.micronaut.websocket.annotation.OnOpen;
import io.micronaut.websocket.annotation.ServerWebSocket;
import org.reactivestreams.Publisher;

/**
 * A WebSocket per room: greets on open, echoes text prefixed with the room, and obeys two commands:
 * {@code close:<code>} (the server closes with that code and reason {@code bye}) and {@code broadcast:<text>}
 * (to every open session of the room). Messages over 4 KiB are refused (1009). Closes are recorded.
 */
@ServerWebSocket("/echo/{room}")
public class EchoSocket {

    private final WebSocketBroadcaster broadcaster;
    private final WebSocketCloses closes;

    public EchoSocket(WebSocketBroadcaster broadcaster, WebSocketCloses closes) {
        this.broadcaster = broadcaster;
        this.closes = closes;
    }

    @OnOpen
    public void onOpen(String room, WebSocketSession session) {
        session.sendSync("joined " + room, MediaType.TEXT_PLAIN_TYPE);
    }

    @OnMessage(maxPayloadLength = 4096)
    public Publisher<String> onMessage(String message, String room, WebSocketSession session) {
        if (message.startsWith("close:")) {
            session.close(new CloseReason(Integer.parseInt(message.substring(6)), "bye"));
            return null;
        }
        if (message.startsWith("broadcast:")) {
            String text = room + " hears " + message.substring(10);
            return broadcaster.broadcast(text, MediaType.TEXT_PLAIN_TYPE,
                    other -> room.equals(other.getUriVariables().get("room", String.class).orElse(null)));
        }
        return session.send(room + ":" + message);
    }

    @OnClose
    public void onClose(String room, CloseReason reason) {
        closes.record(room, reason);
    }
}
