package dev.weft.bench.files;

import com.sun.net.httpserver.HttpServer;
import dev.weft.servlet.ServletContainer;
import dev.weft.servlet.ServletContainerConfig;

import java.net.InetSocketAddress;

/**
 * Static files from Weft's servlet container: a web application with no servlet of its own, whose document root
 * is the directory, served by the container's default servlet (as a servlet application serves its static
 * resources), mounted on a server from {@link HttpServer#create}. Every other setting is its default. Over
 * cleartext HTTP/1.1 the default servlet sends a file's bytes with {@code FileChannel.transferTo} (zero-copy).
 *
 * <p>Usage: {@code java -cp <module jar>:target/lib/* dev.weft.bench.files.WeftServletFileServer PORT DIR}
 */
public final class WeftServletFileServer {

    private WeftServletFileServer() {
    }

    public static void main(String[] args) throws Exception {
        FileServers.Args a = FileServers.parse(args, WeftServletFileServer.class);
        ServletContainer container = ServletContainer.create(ServletContainerConfig.builder()
                .documentRoot(a.dir())
                .registerDefaultServlet(true)
                .build());
        container.start();
        HttpServer server = HttpServer.create(new InetSocketAddress(FileServers.HOST, a.port()), FileServers.BACKLOG);
        container.mount(server);
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(0);
            container.destroy();
        }, "files-shutdown"));
        FileServers.ready(container.getClass(), server.getAddress().getPort());
    }
}
