package dev.weft.httpserver.testing;


import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throw-away PKI generated at test time with the running JDK's {@code keytool}: a CA, a server certificate
 * for {@code localhost} / {@code 127.0.0.1} and a client certificate ({@code CN=test-client}), both signed by
 * the CA. Generated once per JVM into a temporary directory that is deleted on exit.
 *
 * <p>Files: {@code server.p12}, {@code client.p12} (key + chain [leaf, CA]), {@code truststore.p12} (the CA),
 * {@code ca.pem}, {@code client-cert.pem} and, when {@code openssl} is installed, {@code client.pem}
 * (client certificate and unencrypted key, for {@code curl --cert}).
 */
public final class TestCertificates {

    /** Password of every keystore and key. */
    public static final String PASSWORD = "weft-test-pass";

    /** Subject of the client certificate. */
    public static final String CLIENT_SUBJECT = "CN=test-client";

    private static final long PROCESS_TIMEOUT_SECONDS = 60;
    private static TestCertificates instance;

    private final Path dir;
    private final Path clientPem;

    private TestCertificates(Path dir, Path clientPem) {
        this.dir = dir;
        this.clientPem = clientPem;
    }

    /** The certificates of this JVM run, generated on first use. */
    public static synchronized TestCertificates get() {
        if (instance == null) {
            try {
                instance = generate();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while generating certificates", e);
            }
        }
        return instance;
    }

    /** The directory holding every generated file. */
    public Path directory() {
        return dir;
    }

    /** The CA certificate in PEM form (for {@code curl --cacert}). */
    public Path caPem() {
        return dir.resolve("ca.pem");
    }

    /** The client certificate (without key) in PEM form. */
    public Path clientCertPem() {
        return dir.resolve("client-cert.pem");
    }

    /**
     * The client certificate and unencrypted private key in one PEM file (for {@code curl --cert}); aborts the
     * calling test through an assumption when {@code openssl} was not available to produce it.
     */
    public Path clientPem() {
        org.junit.jupiter.api.Assertions.assertNotNull(clientPem, "openssl is required for the PEM client key (scripts/install-test-tools.sh installs it)");
        return clientPem;
    }

    /** Server side: the server certificate, and the CA as trust anchor for client certificates. */
    public SSLContext serverContext() {
        return context(dir.resolve("server.p12"));
    }

    /** Client side trusting the CA, without a client certificate. */
    public SSLContext clientContext() {
        return context(null);
    }

    /** Client side trusting the CA and presenting the {@code CN=test-client} certificate. */
    public SSLContext clientContextWithCertificate() {
        return context(dir.resolve("client.p12"));
    }

    private SSLContext context(Path keyStore) {
        try {
            KeyManagerFactory kmf = null;
            if (keyStore != null) {
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(load(keyStore), PASSWORD.toCharArray());
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(load(dir.resolve("truststore.p12")));
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return ctx;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyStore load(Path file) throws IOException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            ks.load(in, PASSWORD.toCharArray());
        }
        return ks;
    }

    private static TestCertificates generate() throws IOException, GeneralSecurityException, InterruptedException {
        Path dir = Files.createTempDirectory("weft-test-pki");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir), "weft-test-pki-cleanup"));

        // 1. three key pairs (the CA one self-signed with CA extensions)
        runAll(dir,
                keytool("-genkeypair", "-alias", "ca", "-dname", "CN=Weft Test CA", "-keystore", "ca.p12",
                        "-ext", "bc:c=ca:true", "-ext", "KU:c=keyCertSign,cRLSign"),
                keytool("-genkeypair", "-alias", "server", "-dname", "CN=localhost", "-keystore", "server-key.p12"),
                keytool("-genkeypair", "-alias", "client", "-dname", CLIENT_SUBJECT, "-keystore", "client-key.p12"));
        // 2. CA certificate as PEM, certificate requests for the two leaves
        runAll(dir,
                keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-file", "ca.pem"),
                keytool("-certreq", "-alias", "server", "-keystore", "server-key.p12", "-file", "server.csr"),
                keytool("-certreq", "-alias", "client", "-keystore", "client-key.p12", "-file", "client.csr"));
        // 3. the CA signs both
        runAll(dir,
                keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-infile", "server.csr",
                        "-outfile", "server-cert.pem", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
                        "-ext", "KU:c=digitalSignature", "-ext", "EKU=serverAuth"),
                keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-infile", "client.csr",
                        "-outfile", "client-cert.pem", "-ext", "KU:c=digitalSignature", "-ext", "EKU=clientAuth"));

        // 4. assemble the final keystores: key + [leaf, CA]; truststore: CA
        CertificateFactory cf = CertificateFactory.getInstance("X.509");
        X509Certificate ca = readCert(cf, dir.resolve("ca.pem"));
        assemble(dir, "server-key.p12", "server", readCert(cf, dir.resolve("server-cert.pem")), ca, "server.p12");
        assemble(dir, "client-key.p12", "client", readCert(cf, dir.resolve("client-cert.pem")), ca, "client.p12");
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", ca);
        store(trust, dir.resolve("truststore.p12"));

        // 5. PEM client key for curl, if openssl is there
        Path clientPem = null;
        if (onPath("openssl")) {
            run(dir, List.of("openssl", "pkcs12", "-in", "client.p12", "-nodes", "-clcerts",
                    "-out", "client.pem", "-passin", "pass:" + PASSWORD));
            clientPem = dir.resolve("client.pem");
        }
        return new TestCertificates(dir, clientPem);
    }

    private static List<String> keytool(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.add("-J-XX:TieredStopAtLevel=1");
        cmd.add("-J-XX:+UseSerialGC");
        cmd.addAll(List.of(args));
        if (args[0].equals("-genkeypair")) {
            cmd.addAll(List.of("-keyalg", "EC", "-groupname", "secp256r1", "-validity", "3"));
        }
        if (args[0].equals("-gencert")) {
            cmd.addAll(List.of("-validity", "3"));
        }
        cmd.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD, "-noprompt"));
        if (args[0].equals("-genkeypair")) {
            cmd.addAll(List.of("-keypass", PASSWORD));
        }
        return cmd;
    }

    @SafeVarargs
    private static void runAll(Path dir, List<String>... commands) throws IOException, InterruptedException {
        List<Process> processes = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        for (int i = 0; i < commands.length; i++) {
            Path log = Files.createTempFile(dir, "cmd", ".log");
            logs.add(log);
            processes.add(new ProcessBuilder(commands[i]).directory(dir.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start());
        }
        for (int i = 0; i < commands.length; i++) {
            Process p = processes.get(i);
            if (!p.waitFor(PROCESS_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out: " + commands[i]);
            }
            if (p.exitValue() != 0) {
                throw new IOException("failed (exit " + p.exitValue() + "): " + commands[i] + "\n"
                        + Files.readString(logs.get(i), StandardCharsets.ISO_8859_1));
            }
        }
    }

    private static void run(Path dir, List<String> command) throws IOException, InterruptedException {
        runAll(dir, command);
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String d : path.split(File.pathSeparator)) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }

    private static X509Certificate readCert(CertificateFactory cf, Path pem) throws IOException,
            GeneralSecurityException {
        try (InputStream in = Files.newInputStream(pem)) {
            return (X509Certificate) cf.generateCertificate(in);
        }
    }

    private static void assemble(Path dir, String keyFile, String alias, X509Certificate leaf, X509Certificate ca,
                                 String outFile) throws IOException, GeneralSecurityException {
        KeyStore source = load(dir.resolve(keyFile));
        Key key = source.getKey(alias, PASSWORD.toCharArray());
        KeyStore target = KeyStore.getInstance("PKCS12");
        target.load(null, null);
        target.setKeyEntry(alias, (PrivateKey) key, PASSWORD.toCharArray(), new Certificate[] {leaf, ca});
        store(target, dir.resolve(outFile));
    }

    private static void store(KeyStore ks, Path file) throws IOException, GeneralSecurityException {
        try (OutputStream out = Files.newOutputStream(file)) {
            ks.store(out, PASSWORD.toCharArray());
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort at JVM exit
        }
    }
}
