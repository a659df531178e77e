/*
 * Jetty 12 WebSocket echo server of the WebSocket benchmark (bench/run-ws.sh); the counterpart of
 * bench/ws/WeftEchoServer.java.
 *
 * Jetty's core server (no servlet container) with Jetty's own WebSocket API: a WebSocketUpgradeHandler
 * maps /echo to a Session.Listener that sends every text message back as text. The listener demands the
 * next frame only once the echo is written (Jetty's documented pattern for back-pressure), which is
 * what the Weft server's blocking sendText amounts to. Everything else is Jetty's default (thread pool,
 * buffer sizes, message size limits, permessage-deflate available when a client offers it), except:
 *   - the listener binds 127.0.0.1 with an accept queue of 1024, as PlaintextServer and WeftEchoServer do;
 *   - the idle timeout of the connector and of the WebSocket sessions (Jetty's default: 30 s) is set from
 *     the system property bench.ws.idleTimeout (ISO-8601, e.g. PT10M) when it is given: run-ws.sh sets it
 *     for the idle test only, which holds sessions without traffic.
 *
 * Usage: java -cp target/classes:target/lib/* JettyEchoServer PORT
 * Prints "ready org.eclipse.jetty.server.Server <Jetty version>" on stdout once it listens.
 */

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

import java.time.Duration;

public final class JettyEchoServer {

    private JettyEchoServer() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String idle = System.getProperty("bench.ws.idleTimeout");
        Duration idleTimeout = idle == null ? null : Duration.parse(idle);

        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        connector.setAcceptQueueSize(1024);
        if (idleTimeout != null) {
            connector.setIdleTimeout(idleTimeout.toMillis());
        }
        server.addConnector(connector);
        server.setHandler(WebSocketUpgradeHandler.from(server, container -> {
            if (idleTimeout != null) {
                container.setIdleTimeout(idleTimeout);
            }
            container.addMapping("/echo", (request, response, callback) -> new Echo());
        }));
        server.setStopAtShutdown(true);
        server.start();

        System.out.println("ready " + Server.class.getName() + " " + Server.getVersion());
        System.out.flush();
        server.join();
    }

    /**
     * Sends each text message back; asks for the next frame once the echo is written. Public: Jetty calls
     * the listener's methods through method handles, which need a public class.
     */
    public static final class Echo implements Session.Listener {
        private Session session;

        @Override
        public void onWebSocketOpen(Session s) {
            session = s;
            s.demand();
        }

        @Override
        public void onWebSocketText(String message) {
            session.sendText(message, Callback.from(session::demand, failure -> session.close()));
        }

        @Override
        public void onWebSocketBinary(java.nio.ByteBuffer payload, Callback callback) {
            callback.succeed(); // the benchmark sends text only
            session.demand();
        }
    }
}
