package dev.weft.servlet.testing;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Key material made once per test JVM with the JDK's {@code keytool}: a server certificate for {@code localhost}
 * and {@code 127.0.0.1}, a client certificate, and SSL contexts that trust each other's. The server's context
 * asks for (but does not require) a client certificate when its {@code HttpsConfigurator} says so.
 */
public final class Tls {

    public static final String PASSWORD = "secret";
    public static final String CLIENT_NAME = "CN=servlet-test-client";

    private static Tls shared;

    public final Path dir;
    public final Path serverStore;
    public final Path clientStore;
    /** The server certificate in PEM, for curl's {@code --cacert}. */
    public final Path serverPem;
    /** The client key and certificate in PKCS12, for curl's {@code --cert-type P12}. */
    public final Path clientP12;

    private Tls(Path dir) {
        this.dir = dir;
        this.serverStore = dir.resolve("server.p12");
        this.clientStore = dir.resolve("client.p12");
        this.serverPem = dir.resolve("server.pem");
        this.clientP12 = clientStore;
    }

    /** The shared material, generated on first use. */
    public static synchronized Tls shared() {
        if (shared == null) {
            try {
                Path dir = Files.createTempDirectory("servlet-tls");
                Tls t = new Tls(dir);
                keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                        "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype",
                        "PKCS12", "-keystore", t.serverStore.toString(), "-storepass", PASSWORD);
                keytool("-genkeypair", "-alias", "client", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                        CLIENT_NAME, "-validity", "2", "-storetype", "PKCS12", "-keystore", t.clientStore.toString(),
                        "-storepass", PASSWORD);
                keytool("-exportcert", "-rfc", "-alias", "server", "-keystore", t.serverStore.toString(),
                        "-storepass", PASSWORD, "-file", t.serverPem.toString());
                Path clientCert = dir.resolve("client.pem");
                keytool("-exportcert", "-rfc", "-alias", "client", "-keystore", t.clientStore.toString(),
                        "-storepass", PASSWORD, "-file", clientCert.toString());
                // each side trusts the other's certificate
                keytool("-importcert", "-noprompt", "-alias", "client", "-file", clientCert.toString(), "-keystore",
                        t.serverStore.toString(), "-storepass", PASSWORD);
                keytool("-importcert", "-noprompt", "-alias", "server", "-file", t.serverPem.toString(), "-keystore",
                        t.clientStore.toString(), "-storepass", PASSWORD);
                shared = t;
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException("cannot make test certificates", e);
            }
        }
        return shared;
    }

    /** The server's context: its key, and trust in the client certificate. */
    public SSLContext serverContext() {
        return context(serverStore);
    }

    /** The client's context: its key, and trust in the server certificate. */
    public SSLContext clientContext() {
        return context(clientStore);
    }

    private static SSLContext context(Path store) {
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, PASSWORD.toCharArray());
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, PASSWORD.toCharArray());
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return ctx;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        Path java = Path.of(ProcessHandle.current().info().command().orElseThrow());
        List<String> command = new ArrayList<>();
        command.add(java.resolveSibling("keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool failed: " + new String(out));
        }
    }
}
