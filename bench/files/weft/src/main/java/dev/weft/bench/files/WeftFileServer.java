package dev.weft.bench.files;

import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.files.FileHandler;

import java.net.InetSocketAddress;

/**
 * Static files on the Weft engine: one {@link FileHandler} with its defaults (ETags, conditional requests, ranges;
 * no directory listing) on a context at {@code /}, on a server from {@link HttpServer#create} (Weft is found
 * through ServiceLoader; every engine setting is its default or a {@code weft.httpserver.*} system property). Over
 * cleartext HTTP/1.1 the handler sends a file's bytes with {@code FileChannel.transferTo} (zero-copy).
 *
 * <p>Usage: {@code java -cp <module jar>:target/lib/* dev.weft.bench.files.WeftFileServer PORT DIR}
 */
public final class WeftFileServer {

    private WeftFileServer() {
    }

    public static void main(String[] args) throws Exception {
        FileServers.Args a = FileServers.parse(args, WeftFileServer.class);
        HttpServer server = HttpServer.create(new InetSocketAddress(FileServers.HOST, a.port()), FileServers.BACKLOG);
        server.createContext("/", FileHandler.builder(a.dir()).build());
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(0), "files-shutdown"));
        FileServers.ready(server.getClass(), server.getAddress().getPort());
    }
}
