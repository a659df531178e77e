package dev.weft.bench.wsjakarta;

import com.sun.net.httpserver.HttpServer;
import dev.weft.websocket.jakarta.WeftServerContainer;

import java.net.InetSocketAddress;

/**
 * {@link EchoEndpoint} on Weft's Jakarta WebSocket container, mounted on a plain engine {@code HttpServer} (Weft is
 * found through ServiceLoader; every engine setting is its default or a {@code weft.httpserver.*} system property).
 *
 * <p>Usage: {@code java -cp <module jar>:target/lib/* dev.weft.bench.wsjakarta.WeftJakartaEchoServer PORT}
 */
public final class WeftJakartaEchoServer {

    private WeftJakartaEchoServer() {
    }

    public static void main(String[] args) throws Exception {
        int port = EchoServers.port(args, WeftJakartaEchoServer.class);

        WeftServerContainer container = WeftServerContainer.create();
        container.addEndpoint(EchoEndpoint.class);
        HttpServer server = HttpServer.create(new InetSocketAddress(EchoServers.HOST, port), EchoServers.BACKLOG);
        server.createContext("/", container.handler());
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            container.close();
            server.stop(0);
        }, "echo-shutdown"));

        EchoServers.ready(server.getClass(), server.getAddress().getPort(), container);
    }
}
