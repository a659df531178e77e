package dev.weft.spring.boot;

import dev.weft.httpserver.testing.Await;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A private nginx (Debian's, installed by {@code scripts/install-test-tools.sh}) for one test: its configuration,
 * pid file, logs and temporary files live in a fresh folder, it listens on a free loopback port, runs in the
 * foreground as one process, and {@link #close()} stops it and removes the folder.
 */
public final class Nginx implements AutoCloseable {

    private static final int ATTEMPTS = 5;

    private final Process process;
    private final Path dir;
    private final int port;

    private Nginx(Process process, Path dir, int port) {
        this.process = process;
        this.dir = dir;
        this.port = port;
    }

    /**
     * Starts nginx with one {@code server} listening on {@code 127.0.0.1} whose body is {@code serverBlock}
     * ({@code location} directives and the like); returns once it accepts connections.
     */
    public static Nginx start(String serverBlock) throws IOException, InterruptedException {
        Path binary = binary().orElseGet(() -> fail("nginx is required (scripts/install-test-tools.sh installs it)"));
        Path dir = Files.createTempDirectory("weft-nginx");
        for (int attempt = 1; ; attempt++) {
            int port = freePort();
            Files.writeString(dir.resolve("nginx.conf"), config(dir, port, serverBlock));
            Process process = new ProcessBuilder(binary.toString(), "-p", dir.toString(), "-c",
                    dir.resolve("nginx.conf").toString(), "-e", dir.resolve("error.log").toString())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("stdout.log").toFile())
                    .start();
            process.getOutputStream().close();
            if (awaitListening(process, port)) {
                return new Nginx(process, dir, port);
            }
            String log = log(dir);
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            // another process may have taken the port between our check and nginx's bind: try another one
            if (attempt == ATTEMPTS || !log.contains("Address already in use")) {
                delete(dir);
                return fail("nginx did not start:\n" + log);
            }
        }
    }

    /** The port nginx listens on. */
    public int port() {
        return port;
    }

    /** What nginx wrote to its error log and standard streams so far. */
    public String log() throws IOException {
        return log(dir);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            process.destroy(); // SIGTERM: nginx's fast shutdown
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } finally {
            delete(dir);
        }
    }

    private static String config(Path dir, int port, String serverBlock) {
        String d = dir.toString();
        return """
                daemon off;
                master_process off;
                worker_processes 1;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log info;
                events {
                    worker_connections 64;
                }
                http {
                    access_log %1$s/access.log;
                    client_body_temp_path %1$s/client_body;
                    proxy_temp_path %1$s/proxy;
                    fastcgi_temp_path %1$s/fastcgi;
                    uwsgi_temp_path %1$s/uwsgi;
                    scgi_temp_path %1$s/scgi;
                    server {
                        listen 127.0.0.1:%2$d;
                %3$s
                    }
                }
                """.formatted(d, port, serverBlock.indent(8));
    }

    private static Optional<Path> binary() {
        Stream<String> dirs = Stream.concat(Stream.of("/usr/sbin", "/usr/local/sbin"),
                Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        return dirs.filter(d -> !d.isEmpty()).map(d -> Path.of(d, "nginx")).filter(Files::isExecutable).findFirst();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Waits until {@code port} accepts a connection (true) or nginx exits (false). */
    private static boolean awaitListening(Process process, int port) {
        return Await.value("nginx to listen on port " + port + " or to exit", () -> {
            if (!process.isAlive()) {
                return false;
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return true;
            } catch (IOException notYet) {
                return null;
            }
        }, listening -> true);
    }

    private static String log(Path dir) throws IOException {
        StringBuilder log = new StringBuilder();
        for (String name : new String[] { "stdout.log", "error.log" }) {
            Path p = dir.resolve(name);
            if (Files.exists(p)) {
                log.append(Files.readString(p, StandardCharsets.UTF_8));
            }
        }
        return log.toString();
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
