package dev.weft.websocket.jakarta;

import jakarta.websocket.CloseReason;
import jakarta.websocket.DecodeException;
import jakarta.websocket.Decoder;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;

import java.io.IOException;
import java.util.concurrent.LinkedBlockingQueue;

/** Endpoints of the limit and error tests. */
final class LimitEndpoints {

    /** What the endpoints' @OnClose and @OnError saw. */
    static final LinkedBlockingQueue<String> EVENTS = new LinkedBlockingQueue<>();

    private LimitEndpoints() {
    }

    /** Text messages of at most 16 bytes. */
    @ServerEndpoint("/small")
    public static class Small {
        @OnMessage(maxMessageSize = 16)
        public String echo(String m) {
            return m;
        }
    }

    /** Closed after 300 ms without a message. */
    @ServerEndpoint("/idle")
    public static class Idle {
        @OnOpen
        public void open(Session s) {
            s.setMaxIdleTimeout(300);
        }

        @OnMessage
        public String echo(String m) {
            return m;
        }

        @OnClose
        public void close(CloseReason reason) {
            EVENTS.add("idle-closed:" + reason.getCloseCode().getCode());
        }
    }

    /** A point {@code x,y}. */
    public record Point(int x, int y) {
    }

    /** Decodes {@code x,y}; anything else fails. */
    public static class PointDecoder implements Decoder.Text<Point> {
        @Override
        public Point decode(String s) throws DecodeException {
            String[] p = s.split(",");
            try {
                return new Point(Integer.parseInt(p[0].strip()), Integer.parseInt(p[1].strip()));
            } catch (RuntimeException e) {
                throw new DecodeException(s, "not a point", e);
            }
        }

        @Override
        public boolean willDecode(String s) {
            return true;
        }
    }

    /** Receives points; a decoding failure is reported back to the client by @OnError. */
    @ServerEndpoint(value = "/points", decoders = PointDecoder.class)
    public static class Points {
        @OnMessage
        public String point(Point p) {
            return "point:" + p.x() + "," + p.y();
        }

        @OnError
        public void error(Session s, Throwable t) throws IOException {
            s.getBasicRemote().sendText("error:" + t.getClass().getSimpleName());
        }
    }

    /** Its message method throws. */
    @ServerEndpoint("/throws")
    public static class Throws {
        @OnMessage
        public void fail(String m) {
            throw new IllegalStateException("endpoint bug: " + m);
        }

        @OnError
        public void error(Throwable t) {
            EVENTS.add("error:" + t.getMessage());
        }
    }
}
