package dev.weft.bench.wsjakarta;

import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.websocket.jakarta.server.config.JakartaWebSocketServletContainerInitializer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

import jakarta.websocket.server.ServerContainer;

/**
 * {@link EchoEndpoint} on embedded Jetty 12.1 (ee11): a servlet context at {@code /} configured by Jetty's Jakarta
 * WebSocket initializer, which deploys the endpoint class. Everything else is Jetty's default (its thread pool of
 * 200, buffer sizes, idle timeout).
 *
 * <p>Usage: {@code java -cp <module jar>:target/lib/* dev.weft.bench.wsjakarta.JettyJakartaEchoServer PORT}
 */
public final class JettyJakartaEchoServer {

    private JettyJakartaEchoServer() {
    }

    public static void main(String[] args) throws Exception {
        int port = EchoServers.port(args, JettyJakartaEchoServer.class);

        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost(EchoServers.HOST);
        connector.setPort(port);
        connector.setAcceptQueueSize(EchoServers.BACKLOG);
        server.addConnector(connector);

        ServletContextHandler context = new ServletContextHandler("/");
        JakartaWebSocketServletContainerInitializer.configure(context,
                (servletContext, container) -> container.addEndpoint(EchoEndpoint.class));
        server.setHandler(context);
        server.setStopAtShutdown(true);
        server.start();

        EchoServers.ready(Server.class, connector.getLocalPort(),
                context.getServletContext().getAttribute(ServerContainer.class.getName()));
        server.join();
    }
}
