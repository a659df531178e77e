package dev.weft.bench.wsjakarta;

import jakarta.websocket.server.ServerContainer;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.servlets.DefaultServlet;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.websocket.server.WsSci;

import java.nio.file.Files;
import java.util.Set;

/**
 * {@link EchoEndpoint} on embedded Tomcat 11: one context at {@code /} whose WebSocket initializer ({@link WsSci},
 * what Tomcat runs for a web application that has {@code tomcat-embed-websocket}) is handed the endpoint class, as
 * Tomcat's annotation scan would, and Tomcat's default servlet. Everything else is Tomcat's default (the NIO connector, 200 worker threads).
 *
 * <p>Usage: {@code java -cp <module jar>:target/lib/* dev.weft.bench.wsjakarta.TomcatJakartaEchoServer PORT}
 */
public final class TomcatJakartaEchoServer {

    private TomcatJakartaEchoServer() {
    }

    public static void main(String[] args) throws Exception {
        int port = EchoServers.port(args, TomcatJakartaEchoServer.class);

        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createTempDirectory("tomcat-jakarta-echo").toString());
        Connector connector = new Connector();
        connector.setPort(port);
        connector.setProperty("address", EchoServers.HOST);
        connector.setProperty("acceptCount", Integer.toString(EchoServers.BACKLOG));
        tomcat.setConnector(connector);

        Context context = tomcat.addContext("", null);
        // Tomcat's default servlet, as every web application has it (conf/web.xml): a request reaches the filters,
        // among them the WebSocket upgrade filter, only when it maps to a servlet.
        Tomcat.addServlet(context, "default", new DefaultServlet());
        context.addServletMappingDecoded("/", "default");
        context.addServletContainerInitializer(new WsSci(), Set.of(EchoEndpoint.class));
        tomcat.start();

        EchoServers.ready(Tomcat.class, connector.getLocalPort(),
                context.getServletContext().getAttribute(ServerContainer.class.getName()));
        tomcat.getServer().await();
    }
}
