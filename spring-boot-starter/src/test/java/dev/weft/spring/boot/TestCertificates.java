package dev.weft.spring.boot;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * PKCS12 key and trust stores made at test time with the JDK's {@code keytool}: a server certificate for
 * {@code localhost}, a client certificate, and trust stores with each other's certificate.
 */
public final class TestCertificates {

    public static final String PASSWORD = "changeit";

    public static final String CLIENT_SUBJECT = "CN=weft-test-client";

    public final Path serverKeyStore;
    public final Path serverTrustStore;
    public final Path clientKeyStore;
    public final Path clientTrustStore;

    private TestCertificates(Path dir) {
        serverKeyStore = dir.resolve("server.p12");
        serverTrustStore = dir.resolve("server-trust.p12");
        clientKeyStore = dir.resolve("client.p12");
        clientTrustStore = dir.resolve("client-trust.p12");
    }

    private static TestCertificates shared;

    /** One set of stores per test JVM (keytool is slow), generated on first use. */
    public static synchronized TestCertificates shared() {
        if (shared == null) {
            shared = generate();
        }
        return shared;
    }

    /** Generates every store into a new temporary directory. */
    public static TestCertificates generate() {
        try {
            Path dir = Files.createTempDirectory("weft-tls");
            dir.toFile().deleteOnExit();
            TestCertificates certs = new TestCertificates(dir);
            Path serverCert = dir.resolve("server.crt");
            Path clientCert = dir.resolve("client.crt");
            keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
                    "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2",
                    "-storetype", "PKCS12", "-keystore", certs.serverKeyStore.toString(), "-storepass", PASSWORD);
            keytool("-genkeypair", "-alias", "client", "-keyalg", "EC", "-groupname", "secp256r1",
                    "-dname", CLIENT_SUBJECT, "-validity", "2",
                    "-storetype", "PKCS12", "-keystore", certs.clientKeyStore.toString(), "-storepass", PASSWORD);
            keytool("-exportcert", "-alias", "server", "-keystore", certs.serverKeyStore.toString(),
                    "-storepass", PASSWORD, "-file", serverCert.toString());
            keytool("-exportcert", "-alias", "client", "-keystore", certs.clientKeyStore.toString(),
                    "-storepass", PASSWORD, "-file", clientCert.toString());
            keytool("-importcert", "-noprompt", "-alias", "client", "-file", clientCert.toString(),
                    "-storetype", "PKCS12", "-keystore", certs.serverTrustStore.toString(), "-storepass", PASSWORD);
            keytool("-importcert", "-noprompt", "-alias", "server", "-file", serverCert.toString(),
                    "-storetype", "PKCS12", "-keystore", certs.clientTrustStore.toString(), "-storepass", PASSWORD);
            for (Path p : List.of(certs.serverKeyStore, certs.serverTrustStore, certs.clientKeyStore,
                    certs.clientTrustStore, serverCert, clientCert)) {
                p.toFile().deleteOnExit();
            }
            return certs;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("could not generate test certificates", e);
        }
    }

    /** Only a PKCS12 key store (alias {@code server}) with a self-signed certificate for {@code subject}. */
    public static Path serverKeyStore(String subject) {
        try {
            Path dir = Files.createTempDirectory("weft-tls");
            dir.toFile().deleteOnExit();
            Path store = dir.resolve("server.p12");
            keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
                    "-dname", subject, "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2",
                    "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", PASSWORD);
            store.toFile().deleteOnExit();
            return store;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("could not generate a test key store", e);
        }
    }

    /** A client context trusting the server, presenting the client certificate if {@code withClientCert}. */
    public SSLContext clientContext(boolean withClientCert) {
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(load(clientTrustStore));
            KeyManagerFactory kmf = null;
            if (withClientCert) {
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(load(clientKeyStore), PASSWORD.toCharArray());
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf != null ? kmf.getKeyManagers() : null, tmf.getTrustManagers(), null);
            return context;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyStore load(Path path) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(path)) {
            ks.load(in, PASSWORD.toCharArray());
        }
        return ks;
    }

    /** Runs the JDK's {@code keytool} with {@code args}, failing with its output if it fails. */
    public static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Path log = Files.createTempFile("keytool", ".log");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            process.getOutputStream().close();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("keytool timed out: " + command);
            }
            if (process.exitValue() != 0) {
                throw new IOException("keytool failed (" + process.exitValue() + "): " + command + "\n"
                        + Files.readString(log, StandardCharsets.UTF_8));
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
