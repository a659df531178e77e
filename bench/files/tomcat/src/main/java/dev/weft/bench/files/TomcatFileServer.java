package dev.weft.bench.files;

import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.servlets.DefaultServlet;
import org.apache.catalina.startup.Tomcat;

import java.nio.file.Files;

/**
 * Static files on embedded Tomcat 11: one context at {@code /} whose document base is the directory, and Tomcat's
 * default servlet mapped to {@code /}, as every web application has it (conf/web.xml). Everything else is Tomcat's
 * default: the NIO connector with {@code useSendfile=true}, and the default servlet's {@code sendfileSize} of
 * 48 KiB, so a larger file goes out with sendfile(2) (zero-copy).
 *
 * <p>Usage: {@code java -cp <module jar>:target/lib/* dev.weft.bench.files.TomcatFileServer PORT DIR}
 */
public final class TomcatFileServer {

    private TomcatFileServer() {
    }

    public static void main(String[] args) throws Exception {
        FileServers.Args a = FileServers.parse(args, TomcatFileServer.class);

        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createTempDirectory("tomcat-files").toString());
        Connector connector = new Connector();
        connector.setPort(a.port());
        connector.setProperty("address", FileServers.HOST);
        connector.setProperty("acceptCount", Integer.toString(FileServers.BACKLOG));
        tomcat.setConnector(connector);

        Context context = tomcat.addContext("", a.dir().toString());
        Tomcat.addServlet(context, "default", new DefaultServlet());
        context.addServletMappingDecoded("/", "default");
        tomcat.start();

        FileServers.ready(Tomcat.class, connector.getLocalPort());
        tomcat.getServer().await();
    }
}
