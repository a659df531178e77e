package dev.weft.spring.boot.servlet.mvc;

import dev.weft.spring.boot.AdditionalListeners;
import dev.weft.spring.boot.WeftWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;

import static dev.weft.spring.boot.AdditionalListeners.curl;
import static org.assertj.core.api.Assertions.assertThat;

/** A Spring MVC application whose Weft server gets an additional TLS listener from a factory customizer. */
@SpringBootTest(classes = {MvcTestApplication.class, AdditionalListeners.HttpsListener.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"server.address=127.0.0.1", "server.http2.enabled=true"})
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftMvcAdditionalListenersTest {

    @LocalServerPort
    int port;

    @Autowired
    ServletWebServerApplicationContext context;

    @Test
    void anMvcApplicationServesOnItsPortAndOnAnAdditionalHttpsListener() throws Exception {
        WeftWebServer server = (WeftWebServer) context.getWebServer();
        assertThat(server.getPort()).isEqualTo(port);
        int https = server.getPorts().get(1);

        assertThat(curl("http://127.0.0.1:" + port + "/hello")).isEqualTo("Hello World");
        assertThat(curl("-k", "--http2", "-w", " %{http_version}", "https://127.0.0.1:" + https + "/hello"))
                .isEqualTo("Hello World 2");
        assertThat(curl("-k", "https://127.0.0.1:" + https + "/api/greeting?name=tls"))
                .isEqualTo("{\"message\":\"hello tls\",\"length\":9}");
    }
}
