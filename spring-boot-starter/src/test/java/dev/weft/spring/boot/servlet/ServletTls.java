package dev.weft.spring.boot.servlet;

import dev.weft.spring.boot.TestCertificates;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Key material for the TLS tests of the servlet factory, made once per test JVM: a JKS key store with two
 * aliases ({@code spring-boot} for {@code CN=localhost}, {@code test-alias} for {@code CN=test-alias}), the
 * PKCS12 stores of {@link TestCertificates}, and the same server and client keys as PEM files (converted with
 * {@code openssl}). Clients trust any server and record its certificate.
 */
final class ServletTls {

    static final String PASSWORD = TestCertificates.PASSWORD;

    final TestCertificates pkcs12 = TestCertificates.shared();
    final Path jks;
    final Path serverCertificatePem;
    final Path serverKeyPem;
    final Path clientCertificatePem;
    final Path clientKeyPem;

    private static ServletTls shared;

    private ServletTls(Path dir) throws IOException, InterruptedException {
        jks = dir.resolve("aliases.jks");
        for (String alias : List.of("spring-boot", "test-alias")) {
            TestCertificates.keytool("-genkeypair", "-alias", alias, "-keyalg", "EC", "-groupname", "secp256r1",
                    "-dname", "CN=" + (alias.equals("spring-boot") ? "localhost" : alias), "-validity", "2",
                    "-storetype", "JKS", "-keystore", jks.toString(), "-storepass", PASSWORD,
                    "-keypass", PASSWORD);
        }
        serverCertificatePem = dir.resolve("server-cert.pem");
        serverKeyPem = dir.resolve("server-key.pem");
        clientCertificatePem = dir.resolve("client-cert.pem");
        clientKeyPem = dir.resolve("client-key.pem");
        pem(pkcs12.serverKeyStore, serverCertificatePem, "-nokeys");
        pem(pkcs12.serverKeyStore, serverKeyPem, "-nocerts", "-nodes");
        pem(pkcs12.clientKeyStore, clientCertificatePem, "-nokeys");
        pem(pkcs12.clientKeyStore, clientKeyPem, "-nocerts", "-nodes");
    }

    /** The material of this JVM, made on first use. */
    static synchronized ServletTls shared() {
        if (shared == null) {
            try {
                Path dir = Files.createTempDirectory("weft-servlet-tls");
                dir.toFile().deleteOnExit();
                shared = new ServletTls(dir);
                try (var files = Files.list(dir)) {
                    files.forEach(f -> f.toFile().deleteOnExit());
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException("could not make the TLS test material", e);
            }
        }
        return shared;
    }

    /**
     * A client context trusting any server (recording its certificate in {@code server}, if given), presenting
     * the certificate of the PKCS12 {@code clientKeyStore} if it is not null.
     */
    static SSLContext client(Path clientKeyStore, AtomicReference<X509Certificate> server) {
        try {
            KeyManagerFactory kmf = null;
            if (clientKeyStore != null) {
                KeyStore store = KeyStore.getInstance("PKCS12");
                try (InputStream in = Files.newInputStream(clientKeyStore)) {
                    store.load(in, PASSWORD.toCharArray());
                }
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(store, PASSWORD.toCharArray());
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf != null ? kmf.getKeyManagers() : null,
                    new X509ExtendedTrustManager[] { new TrustingManager(server) }, null);
            return context;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void pem(Path pkcs12, Path out, String... options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("openssl", "pkcs12", "-in", pkcs12.toString(),
                "-passin", "pass:" + PASSWORD, "-out", out.toString()));
        command.addAll(List.of(options));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("openssl failed: " + command + "\n" + output);
        }
    }

    /** Trusts every server; records the leaf certificate. */
    private static final class TrustingManager extends X509ExtendedTrustManager {

        private final AtomicReference<X509Certificate> server;

        TrustingManager(AtomicReference<X509Certificate> server) {
            this.server = server;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            if (server != null) {
                server.set(chain[0]);
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
            checkServerTrusted(chain, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            checkServerTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
