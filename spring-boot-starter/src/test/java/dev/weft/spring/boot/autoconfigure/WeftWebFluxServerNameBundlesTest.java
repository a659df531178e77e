package dev.weft.spring.boot.autoconfigure;

import dev.weft.spring.boot.ServerNameBundlesContract;
import dev.weft.spring.boot.SniBundleFiles;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** A WebFlux application with {@code server.ssl.server-name-bundles}: the certificate by SNI name, and reloads. */
@SpringBootTest(classes = WeftTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "server.http2.enabled=true")
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftWebFluxServerNameBundlesTest extends ServerNameBundlesContract {

    private static final SniBundleFiles FILES = SniBundleFiles.generate();

    WeftWebFluxServerNameBundlesTest() {
        super(FILES, "/greeting");
    }

    @DynamicPropertySource
    static void bundles(DynamicPropertyRegistry registry) {
        FILES.register(registry);
    }
}
