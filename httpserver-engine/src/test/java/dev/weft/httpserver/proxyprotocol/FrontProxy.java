package dev.weft.httpserver.proxyprotocol;

import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.ExternalTools;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A real TCP proxy (HAProxy or nginx's stream module, Debian's) run by a test as its own foreground process,
 * with its configuration in a fresh folder, listening on free loopback ports; {@link #close()} stops it and
 * removes the folder.
 */
final class FrontProxy implements AutoCloseable {

    private final Process process;
    private final Path dir;
    private final int[] ports;

    private FrontProxy(Process process, Path dir, int[] ports) {
        this.process = process;
        this.dir = dir;
        this.ports = ports;
    }

    /** HAProxy with the configuration {@code config} makes of the folder and {@code listeners} free ports. */
    static FrontProxy haproxy(int listeners, Function<Config, String> config) throws IOException {
        Path binary = binary("haproxy");
        return start(listeners, config, (dir, cfg) -> List.of(binary.toString(), "-db", "-f", cfg.toString()));
    }

    /** nginx with {@code stream { config }} and the stream module loaded, listening on {@code listeners} ports. */
    static FrontProxy nginxStream(int listeners, Function<Config, String> streamBlock) throws IOException {
        Path binary = binary("nginx");
        Path module = Path.of("/usr/lib/nginx/modules/ngx_stream_module.so");
        if (!Files.exists(module)) {
            String message = "nginx's stream module " + module + " is missing; " + ExternalTools.INSTALL_HINT;
            if (ExternalTools.toolsRequired()) {
                Assertions.fail(message);
            }
            Assumptions.abort(message);
        }
        return start(listeners, c -> """
                daemon off;
                master_process off;
                worker_processes 1;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log info;
                load_module %2$s;
                events {
                    worker_connections 64;
                }
                stream {
                %3$s
                }
                """.formatted(c.dir(), module, streamBlock.apply(c)),
                (dir, cfg) -> List.of(binary.toString(), "-p", dir.toString(), "-c", cfg.toString(), "-e",
                        dir.resolve("error.log").toString()));
    }

    /** The program on the tools' search path, else in {@code /usr/sbin}; fails or skips the test without it. */
    private static Path binary(String name) {
        Path sbin = Path.of("/usr/sbin", name);
        return ExternalTools.find(name).orElseGet(() -> Files.isExecutable(sbin) ? sbin : ExternalTools.require(name));
    }

    /** Where a configuration is written and the ports it is to listen on. */
    record Config(Path dir, int[] ports) {
    }

    private interface Command {
        List<String> of(Path dir, Path config);
    }

    private static FrontProxy start(int listeners, Function<Config, String> config, Command command)
            throws IOException {
        Path dir = Files.createTempDirectory("weft-front-proxy");
        int[] ports = new int[listeners];
        for (int i = 0; i < listeners; i++) {
            ports[i] = freePort();
        }
        Path cfg = dir.resolve("proxy.conf");
        Files.writeString(cfg, config.apply(new Config(dir, ports)));
        Process process = new ProcessBuilder(command.of(dir, cfg)).redirectErrorStream(true)
                .redirectOutput(dir.resolve("output.log").toFile()).start();
        process.getOutputStream().close();
        FrontProxy proxy = new FrontProxy(process, dir, ports);
        for (int port : ports) {
            boolean listening = Await.value("the proxy to listen on " + port + " or to exit", () -> {
                if (!process.isAlive()) {
                    return false;
                }
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                    return true;
                } catch (IOException notYet) {
                    return null;
                }
            }, r -> true);
            if (!listening) {
                String log = proxy.log();
                proxy.close();
                Assertions.fail("the proxy did not start:\n" + log);
            }
        }
        return proxy;
    }

    /** The {@code i}th listening port. */
    int port(int i) {
        return ports[i];
    }

    /** What the proxy wrote so far. */
    String log() throws IOException {
        StringBuilder log = new StringBuilder();
        for (String name : List.of("output.log", "error.log")) {
            Path p = dir.resolve(name);
            if (Files.exists(p)) {
                log.append(Files.readString(p));
            }
        }
        return log.toString();
    }

    @Override
    public void close() throws IOException {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
