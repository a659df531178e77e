package dev.weft.spring.boot.servlet.mvc;

import dev.weft.spring.boot.ServerNameBundlesContract;
import dev.weft.spring.boot.SniBundleFiles;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** An MVC application with {@code server.ssl.server-name-bundles}: the certificate by SNI name, and reloads. */
@SpringBootTest(classes = MvcTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "server.http2.enabled=true")
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftMvcServerNameBundlesTest extends ServerNameBundlesContract {

    private static final SniBundleFiles FILES = SniBundleFiles.generate();

    WeftMvcServerNameBundlesTest() {
        super(FILES, "/hello");
    }

    @DynamicPropertySource
    static void bundles(DynamicPropertyRegistry registry) {
        FILES.register(registry);
    }
}
