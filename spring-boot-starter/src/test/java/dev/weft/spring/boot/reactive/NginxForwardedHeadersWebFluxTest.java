package dev.weft.spring.boot.reactive;

import dev.weft.spring.boot.NginxInFrontOfTheApp;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

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
class NginxForwardedHeadersWebFluxTest extends NginxInFrontOfTheApp {

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
