package dev.weft.spring.boot.autoconfigure;

import dev.weft.spring.boot.AdditionalListeners;
import dev.weft.spring.boot.WeftWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static dev.weft.spring.boot.AdditionalListeners.curl;
import static org.assertj.core.api.Assertions.assertThat;

/** A WebFlux application whose Weft server gets an additional TLS listener from a factory customizer. */
@Timeout(60)
class WeftAdditionalListenersApplicationTest {

    @Test
    void aWebFluxApplicationServesOnItsPortAndOnAnAdditionalHttpsListener() throws Exception {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(WeftTestApplication.class,
                AdditionalListeners.HttpsListener.class).web(WebApplicationType.REACTIVE)
                .properties("spring.main.banner-mode=off", "server.port=0", "server.address=127.0.0.1",
                        "server.http2.enabled=true")
                .run()) {
            WeftWebServer server = (WeftWebServer) ((ReactiveWebServerApplicationContext) context).getWebServer();
            int http = server.getPort();
            int https = server.getPorts().get(1);
            assertThat(server.getPorts()).containsExactly(http, https);

            assertThat(curl("http://127.0.0.1:" + http + "/protocol")).isEqualTo("HTTP/1.1");
            assertThat(curl("--http2-prior-knowledge", "http://127.0.0.1:" + http + "/protocol"))
                    .isEqualTo("HTTP/2.0");
            assertThat(curl("-k", "--http2", "https://127.0.0.1:" + https + "/protocol")).isEqualTo("HTTP/2.0");
            assertThat(curl("-k", "https://127.0.0.1:" + https + "/greeting?name=tls"))
                    .isEqualTo("{\"message\":\"Hello, tls\"}");
        }
    }
}
