package dev.weft.websocket.jakarta.scanned;

import jakarta.websocket.OnMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.PathParam;
import jakarta.websocket.server.ServerEndpoint;

/** Found by the initializer's @HandlesTypes scan of this package. */
@ServerEndpoint("/scanned/{name}")
public class ScannedEndpoint {

    /** Answers {@code scanned:name:message:version}. */
    @OnMessage
    public String message(String m, @PathParam("name") String name, Session s) {
        return "scanned:" + name + ":" + m + ":" + s.getProtocolVersion();
    }
}
