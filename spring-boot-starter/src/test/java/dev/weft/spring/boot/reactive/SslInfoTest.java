package dev.weft.spring.boot.reactive;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.http.server.reactive.SslInfo;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** TLS details ({@code SslInfo}), scheme and addresses over an {@code HttpsServer}, with self-signed certificates. */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SslInfoTest {

    private static final String PASSWORD = "weft-adapter-test";

    @TempDir
    static Path dir;

    private static AdapterServer server;
    private static SSLContext clientWithCertificate;
    private static SSLContext clientWithoutCertificate;

    @BeforeAll
    static void start() throws Exception {
        generate("server", "CN=localhost", "SAN=ip:127.0.0.1,dns:localhost");
        generate("client", "CN=weft-adapter-client", null);
        KeyStore serverKeys = load(dir.resolve("server.p12"));
        KeyStore clientKeys = load(dir.resolve("client.p12"));
        KeyStore trustClient = trusting("client", (X509Certificate) clientKeys.getCertificate("client"));
        KeyStore trustServer = trusting("server", (X509Certificate) serverKeys.getCertificate("server"));
        clientWithCertificate = context(clientKeys, trustServer);
        clientWithoutCertificate = context(null, trustServer);

        var routes = RouterFunctions.route().GET("/tls", request -> {
            SslInfo info = request.exchange().getRequest().getSslInfo();
            X509Certificate[] peer = info == null ? null : info.getPeerCertificates();
            return ServerResponse.ok().bodyValue(request.uri().getScheme()
                    + "|" + (info == null ? "no-ssl-info" : info.getSessionId())
                    + "|" + (peer == null || peer.length == 0 ? "no-peer" : peer[0].getSubjectX500Principal().getName())
                    + "|" + request.localAddress().orElseThrow().getPort());
        }).build();
        server = AdapterServer.startHttps(RouterFunctions.toHttpHandler(routes), context(serverKeys, trustClient));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void clientCertificateAndSessionIdAreExposedAsSslInfo() throws Exception {
        String[] parts = get(clientWithCertificate).split("\\|");

        assertThat(parts[0]).isEqualTo("https");
        assertThat(parts[1]).matches("[0-9a-f]+");
        assertThat(parts[2]).isEqualTo("CN=weft-adapter-client");
        assertThat(parts[3]).isEqualTo(Integer.toString(server.port()));
    }

    @Test
    void clientWithoutCertificateStillHasSslInfoButNoPeerCertificates() throws Exception {
        String[] parts = get(clientWithoutCertificate).split("\\|");

        assertThat(parts[0]).isEqualTo("https");
        assertThat(parts[1]).isNotEqualTo("no-ssl-info");
        assertThat(parts[2]).isEqualTo("no-peer");
    }

    private static String get(SSLContext ssl) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(ssl)
                .connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(server.uri("/tls"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    /** A self-signed EC key pair in {@code <alias>.p12}, made by the running JDK's keytool. */
    private static void generate(String alias, String dname, String extension) throws Exception {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> command = new ArrayList<>(List.of(keytool.toString(), "-genkeypair",
                "-alias", alias, "-dname", dname, "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", dir.resolve(alias + ".p12").toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD, "-noprompt"));
        if (extension != null) {
            command.addAll(List.of("-ext", extension));
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve(alias + ".log").toFile()).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("keytool finished").isTrue();
        assertThat(process.exitValue()).as(() -> readLog(alias)).isZero();
    }

    private static String readLog(String alias) {
        try {
            return Files.readString(dir.resolve(alias + ".log"));
        } catch (IOException ex) {
            return ex.toString();
        }
    }

    private static KeyStore load(Path file) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, PASSWORD.toCharArray());
        }
        return store;
    }

    private static KeyStore trusting(String alias, X509Certificate certificate) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setCertificateEntry(alias, certificate);
        return store;
    }

    private static SSLContext context(KeyStore keys, KeyStore trust) throws Exception {
        KeyManagerFactory kmf = null;
        if (keys != null) {
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, PASSWORD.toCharArray());
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return context;
    }
}
