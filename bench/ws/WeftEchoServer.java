/*
 * Weft WebSocket echo server of the WebSocket benchmark (bench/run-ws.sh); the counterpart of
 * bench/ws/jetty/src/main/java/JettyEchoServer.java.
 *
 * A plain com.sun.net.httpserver.HttpServer (Weft is found through ServiceLoader, as in PlaintextServer)
 * with Weft's WebSocketHandler on /echo: every text message is sent back as text with the blocking
 * sendText, on the session's own virtual thread. No executor is set and nothing is configured in code:
 * every setting is the engine's default or comes from a weft.httpserver.* system property, which
 * run-ws.sh uses for the idle test only (maxConnections above the 10,000 sessions, a longer WebSocket
 * idle timeout).
 *
 * Usage: java -cp <weft jar>:<classes> WeftEchoServer PORT
 * Prints "ready <provider class name>" on stdout once the server is started.
 */

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.spi.HttpServerProvider;
import dev.weft.httpserver.websocket.WebSocketHandler;
import dev.weft.httpserver.websocket.WebSocketListener;
import dev.weft.httpserver.websocket.WebSocketSession;

import java.io.IOException;
import java.net.InetSocketAddress;

public final class WeftEchoServer {

    private WeftEchoServer() {
    }

    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);

        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1024);
        server.createContext("/echo", WebSocketHandler.builder(handshake -> new WebSocketListener() {
            @Override
            public void onText(WebSocketSession session, String message) throws IOException {
                session.sendText(message);
            }
        }).build());
        server.start();

        // Stop the listener on SIGTERM/SIGINT so the port is released promptly.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(0), "echo-shutdown"));

        System.out.println("ready " + HttpServerProvider.provider().getClass().getName());
        System.out.flush();
    }
}
