package dev.weft.spring.boot.servlet.mvc;

import dev.weft.spring.boot.NginxInFrontOfTheApp;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real nginx with {@code X-Forwarded-For/-Proto/-Host} in front of a Spring MVC application on Weft with
 * {@code server.forward-headers-strategy=native}: the servlet request reports the client's address, the scheme
 * it used with nginx ({@code isSecure()} included) and the host and port it addressed.
 */
@SpringBootTest(classes = MvcTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "server.forward-headers-strategy=native")
class NginxForwardedHeadersMvcTest extends NginxInFrontOfTheApp {

    @Test
    void theServletRequestReportsTheClientBehindNginxAndTheSchemeItUsed() throws Exception {
        assertThat(nginx.get("/origin", false))
                .isEqualTo("127.0.0.2 http false http://127.0.0.1:" + nginx.port() + "/origin");
        assertThat(nginx.get("/origin", true))
                .isEqualTo("127.0.0.2 https true https://127.0.0.1:" + nginx.tlsPort() + "/origin");
    }
}
