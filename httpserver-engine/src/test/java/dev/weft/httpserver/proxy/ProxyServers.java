package dev.weft.httpserver.proxy;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.TestCertificates;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/** A Weft server on 127.0.0.1 with a {@link ProxyHandler} at {@code /}, and the tools the proxy tests run. */
final class ProxyServers implements AutoCloseable {

    /** A configuration that lets tests reach origins on 127.0.0.1 at any port. */
    static ProxyConfig.Builder loopbackAllowed() {
        return ProxyConfig.builder().allowedHosts("127.0.0.1/32", "localhost")
                .forwardPorts("1-65535").connectPorts("1-65535");
    }

    private final HttpServer server;

    private ProxyServers(HttpServer server) {
        this.server = server;
    }

    static ProxyServers start(ProxyConfig config) throws IOException {
        return start(config, ServerConfig.defaults());
    }

    static ProxyServers start(ProxyConfig config, ServerConfig serverConfig) throws IOException {
        return started(Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, serverConfig), config);
    }

    /** A proxy clients reach over TLS (an HTTPS proxy), with the test certificate for 127.0.0.1. */
    static ProxyServers startTls(ProxyConfig config) throws IOException {
        HttpsServer server = Weft.createHttpsServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        server.setHttpsConfigurator(new HttpsConfigurator(TestCertificates.get().serverContext()));
        return started(server, config);
    }

    private static ProxyServers started(HttpServer server, ProxyConfig config) {
        server.createContext("/", new ProxyHandler(config));
        server.start();
        return new ProxyServers(server);
    }

    int port() {
        return server.getAddress().getPort();
    }

    String url() {
        return "http://127.0.0.1:" + port();
    }

    StatsSnapshot.Proxy stats() {
        return Weft.stats(server).proxy();
    }

    /** The server's HTTP/2 counters. */
    StatsSnapshot.Http2 http2Stats() {
        return Weft.stats(server).http2();
    }

    /** Waits until the proxy counters satisfy {@code condition}; returns that snapshot. */
    StatsSnapshot.Proxy awaitStats(Predicate<StatsSnapshot.Proxy> condition) {
        return Await.value("the proxy statistics to satisfy the condition", this::stats, condition);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /** What curl did: exit code, body on stdout, and the {@code -w} summary (HTTP version, status). */
    record Curl(int exit, String body, String httpVersion, int status, String stderr) {
    }

    /** Runs curl {@code -sS} with {@code args} and a {@code -w} summary, at most 60 s. */
    static Curl curl(String... args) {
        List<String> cmd = new ArrayList<>(List.of(ExternalTools.require("curl").toString(), "-sS"));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("-w", "\n@@curl %{http_version} %{response_code}"));
        ExternalTools.Result r = ExternalTools.run(cmd, Duration.ofSeconds(60));
        String out = r.stdout();
        int at = out.lastIndexOf("\n@@curl ");
        if (at < 0) {
            return new Curl(r.exit(), out, "", 0, r.describe());
        }
        String[] w = out.substring(at + "\n@@curl ".length()).strip().split(" ");
        return new Curl(r.exit(), out.substring(0, at), w[0], Integer.parseInt(w[1]), r.describe());
    }

    /** A port on 127.0.0.1 nothing listens on (bound, then released). */
    static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** A script of {@code src/test/resources/proxy}, copied to a temporary file. */
    static Path script(String name) {
        try (InputStream in = ProxyServers.class.getResourceAsStream("/proxy/" + name)) {
            assertNotNull(in, "test resource /proxy/" + name);
            Path p = Files.createTempFile("weft-proxy-", "-" + name);
            Files.copy(in, p, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            p.toFile().deleteOnExit();
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
