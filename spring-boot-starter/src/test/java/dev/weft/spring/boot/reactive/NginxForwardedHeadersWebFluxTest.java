package dev.weft.spring.boot.reactive;

import dev.weft.spring.boot.ForwardingNginx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real nginx with {@code X-Forwarded-For/-Proto/-Host} in front of a WebFlux application on Weft with
 * {@code server.forward-headers-strategy=native}: WebFlux sees the client's address, the scheme it used with
 * nginx and the host it addressed; a prefix header sent straight from the (trusted, loopback) client becomes the
 * context path.
 */
@SpringBootTest(classes = ForwardedTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = "server.forward-headers-strategy=native")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NginxForwardedHeadersWebFluxTest {

    @LocalServerPort
    int weftPort;

    private ForwardingNginx nginx;

    @BeforeAll
    void startNginx() throws Exception {
        nginx = ForwardingNginx.start(weftPort);
    }

    @AfterAll
    void stopNginx() throws Exception {
        if (nginx != null) {
            nginx.close();
        }
    }

    @Test
    void webFluxSeesTheClientBehindNginxAndTheSchemeItUsed() throws Exception {
        assertThat(nginx.get("/origin", false)).isEqualTo("127.0.0.2 http 127.0.0.1:" + nginx.port() + " ");
        assertThat(nginx.get("/origin", true)).isEqualTo("127.0.0.2 https 127.0.0.1:" + nginx.tlsPort() + " ");
    }

    @Test
    void aForwardedPrefixBecomesTheContextPath() throws IOException {
        String response = RawHttp.get(weftPort, "/origin", "X-Forwarded-Prefix: /shop",
                "X-Forwarded-Proto: https");

        assertThat(RawHttp.body(response)).isEqualTo("127.0.0.1 https localhost /shop");
    }
}
