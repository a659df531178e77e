package dev.weft.spring.boot;

import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.HostCertificates;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an application with {@code server.ssl.server-name-bundles} (see {@link SniBundleFiles}) must do, whatever
 * its web stack: serve each name its bundle's certificate, over HTTP/1.1 and HTTP/2, the default bundle's to
 * other clients, and a reloaded bundle's new certificate to new connections. The reload runs last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public abstract class ServerNameBundlesContract {

    private final SniBundleFiles files;
    private final String okPath;

    @LocalServerPort
    private int port;

    /**
     * @param files  the application's key stores
     * @param okPath a path the application answers 200 to
     */
    protected ServerNameBundlesContract(SniBundleFiles files, String okPath) {
        this.files = files;
        this.okPath = okPath;
    }

    @Test
    @Order(1)
    void eachServerNameGetsItsBundlesCertificateAndOtherClientsTheDefault() {
        assertThat(SniBundleFiles.presentedName(port, "a.test")).isEqualTo("a.test");
        assertThat(SniBundleFiles.presentedName(port, "A.Test")).isEqualTo("a.test");
        assertThat(SniBundleFiles.presentedName(port, "www.b.test")).isEqualTo("b.test");
        assertThat(SniBundleFiles.presentedName(port, null)).isEqualTo("default.test");
        assertThat(SniBundleFiles.presentedName(port, "c.test")).isEqualTo("default.test");
    }

    @Test
    @Order(2)
    void curlTrustingOnlyTheNamesCertificateGetsAnAnswerOverHttp1AndHttp2() throws Exception {
        HostCertificates a = files.host("a.test");
        for (String version : new String[] {"--http1.1", "--http2"}) {
            String out = curlStatus(version, a);
            assertThat(out).isEqualTo(version.equals("--http2") ? "2 200" : "1.1 200");
        }
        Curl.Result wrong = Curl.run("--resolve", "a.test:" + port + ":127.0.0.1",
                "--cacert", files.host("default.test").pem().toString(), "https://a.test:" + port + okPath);
        assertThat(wrong.exitCode()).as("curl trusting another certificate: %s", wrong.stderr()).isEqualTo(60);
    }

    @Test
    @Order(3)
    void aBundleReloadedFromItsChangedFilesServesTheNewCertificateToNewConnections() {
        assertThat(SniBundleFiles.presented(port, "a.test")).isEqualTo(files.host("a.test").certificate());

        files.replaceA();

        Await.until("a.test to be served the reloaded certificate",
                () -> SniBundleFiles.presented(port, "a.test").equals(files.nextA().certificate()),
                Duration.ofSeconds(30));
        assertThat(SniBundleFiles.presentedName(port, null)).isEqualTo("default.test");
        assertThat(SniBundleFiles.presentedName(port, "www.b.test")).isEqualTo("b.test");
    }

    private String curlStatus(String version, HostCertificates a) throws Exception {
        return new String(Curl.ok(version, "--resolve", "a.test:" + port + ":127.0.0.1",
                "--cacert", a.pem().toString(), "-o", "/dev/null", "-w", "%{http_version} %{response_code}",
                "https://a.test:" + port + okPath), StandardCharsets.US_ASCII);
    }
}
