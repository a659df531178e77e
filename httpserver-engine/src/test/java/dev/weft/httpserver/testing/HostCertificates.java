package dev.weft.httpserver.testing;

import org.junit.jupiter.api.Assertions;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Self-signed server certificates for given host names, made with the running JDK's {@code keytool}: per host a
 * PKCS12 key store ({@code <host>.p12}, alias {@code server}, password {@link TestCertificates#PASSWORD}) and its
 * certificate as PEM ({@code <host>.pem}, for {@code curl --cacert}), subject {@code CN=<host>} with the host as
 * DNS name (and {@code 127.0.0.1} as IP address).
 *
 * @param host     the host name
 * @param keyStore the PKCS12 key store with key and certificate
 * @param pem      the certificate alone in PEM form
 */
public record HostCertificates(String host, Path keyStore, Path pem) {

    /** The password of every key store and key. */
    public static final String PASSWORD = TestCertificates.PASSWORD;

    private static final Duration KEYTOOL_LIMIT = Duration.ofSeconds(60);

    /**
     * Generates one certificate per host into {@code dir}, the keytool runs in parallel.
     *
     * @param keyAlgorithm {@code EC} or {@code RSA}, one per host
     */
    public static List<HostCertificates> generate(Path dir, List<String> hosts, List<String> keyAlgorithm) {
        List<ExternalTools.Running> running = new ArrayList<>();
        List<HostCertificates> made = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            String host = hosts.get(i);
            HostCertificates c = new HostCertificates(host, dir.resolve(host + ".p12"), dir.resolve(host + ".pem"));
            made.add(c);
            running.add(ExternalTools.start(keytool("-genkeypair", "-alias", "server", "-dname", "CN=" + host,
                    "-keyalg", keyAlgorithm.get(i), "-validity", "3", "-keypass", TestCertificates.PASSWORD,
                    "-ext", "SAN=dns:" + host + ",ip:127.0.0.1", "-keystore", c.keyStore.toString()), null));
        }
        awaitAll(running);
        for (HostCertificates c : made) {
            running.add(ExternalTools.start(keytool("-exportcert", "-rfc", "-alias", "server",
                    "-keystore", c.keyStore.toString(), "-file", c.pem.toString()), null));
        }
        awaitAll(running);
        return List.copyOf(made);
    }

    /** The key store, loaded. */
    public KeyStore load() {
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, TestCertificates.PASSWORD.toCharArray());
            return ks;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The certificate. */
    public X509Certificate certificate() {
        try (InputStream in = Files.newInputStream(pem)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> keytool(String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool")
                .toString(), "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("-storetype", "PKCS12", "-storepass", TestCertificates.PASSWORD, "-noprompt"));
        return cmd;
    }

    private static void awaitAll(List<ExternalTools.Running> running) {
        for (ExternalTools.Running r : running) {
            ExternalTools.Result result = r.await(KEYTOOL_LIMIT);
            Assertions.assertEquals(0, result.exit(), result::describe);
        }
        running.clear();
    }
}
