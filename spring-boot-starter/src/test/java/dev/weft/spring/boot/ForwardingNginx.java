package dev.weft.spring.boot;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A private {@link Nginx} in front of a Weft server as a reverse proxy usually is: cleartext on one port, TLS
 * (a throw-away certificate) on another, passing requests on with {@code X-Forwarded-For},
 * {@code X-Forwarded-Proto} and {@code X-Forwarded-Host}. {@link #get} asks through it with curl from
 * {@code 127.0.0.2}, so that the client's address differs from nginx's {@code 127.0.0.1}.
 */
public final class ForwardingNginx implements AutoCloseable {

    /** The address curl connects from. */
    public static final String CLIENT = "127.0.0.2";

    private final Nginx nginx;
    private final int tlsPort;
    private final Path dir;

    private ForwardingNginx(Nginx nginx, int tlsPort, Path dir) {
        this.nginx = nginx;
        this.tlsPort = tlsPort;
        this.dir = dir;
    }

    /** Starts nginx in front of {@code 127.0.0.1:weftPort}. */
    public static ForwardingNginx start(int weftPort) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("weft-nginx-tls");
        Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-subj", "/CN=localhost", "-keyout", dir.resolve("key.pem").toString(), "-out",
                dir.resolve("cert.pem").toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("openssl.log").toFile()).start();
        assertEquals(0, openssl.waitFor(60, TimeUnit.SECONDS) ? openssl.exitValue() : -1, "openssl req");
        int tlsPort;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            tlsPort = s.getLocalPort();
        }
        Nginx nginx = Nginx.start("""
                listen 127.0.0.1:%d ssl;
                ssl_certificate %s;
                ssl_certificate_key %s;
                location / {
                    proxy_pass http://127.0.0.1:%d;
                    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                    proxy_set_header X-Forwarded-Proto $scheme;
                    proxy_set_header X-Forwarded-Host $http_host;
                }
                """.formatted(tlsPort, dir.resolve("cert.pem"), dir.resolve("key.pem"), weftPort));
        return new ForwardingNginx(nginx, tlsPort, dir);
    }

    /** nginx's cleartext port. */
    public int port() {
        return nginx.port();
    }

    /** nginx's TLS port. */
    public int tlsPort() {
        return tlsPort;
    }

    /** The body of {@code GET path} through nginx, over TLS or not, from {@link #CLIENT}. */
    public String get(String path, boolean tls) throws IOException, InterruptedException {
        String url = (tls ? "https://127.0.0.1:" + tlsPort : "http://127.0.0.1:" + port()) + path;
        return new String(Curl.ok("-k", "--interface", CLIENT, url), java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws Exception {
        try {
            nginx.close();
        } finally {
            for (String name : List.of("key.pem", "cert.pem", "openssl.log")) {
                Files.deleteIfExists(dir.resolve(name));
            }
            Files.deleteIfExists(dir);
        }
    }
}
