package dev.weft.spring.boot.autoconfigure;

import dev.weft.spring.boot.WeftWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** How the application starts (or refuses to) for special server settings. */
@Timeout(60)
class WeftServerStartupTest {

    @Test
    void takenPortFailsStartupWithPortInUseException() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(0));
            int port = taken.getLocalPort();

            Throwable failure = catchThrowable(() -> run("server.port=" + port).close());

            assertThat(causes(failure)).filteredOn(PortInUseException.class::isInstance)
                    .singleElement()
                    .satisfies(e -> assertThat(((PortInUseException) e).getPort()).isEqualTo(port));
        }
    }

    @Test
    void http2EnabledFailsStartupWithAClearMessage() {
        Throwable failure = catchThrowable(() -> run("server.port=0", "server.http2.enabled=true").close());

        assertThat(causes(failure)).filteredOn(IllegalStateException.class::isInstance)
                .anySatisfy(e -> assertThat(e.getMessage())
                        .contains("HTTP/2")
                        .contains("issue 4")
                        .contains("server.http2.enabled=false"));
    }

    @Test
    void portMinusOneCreatesTheServerButNeverListens() {
        try (ConfigurableApplicationContext context = run("server.port=-1")) {
            WebServer webServer = ((ReactiveWebServerApplicationContext) context).getWebServer();

            assertThat(webServer).isInstanceOf(WeftWebServer.class);
            assertThat(webServer.getPort()).isEqualTo(-1);
            assertThat(((WeftWebServer) webServer).getServer()).isNull();
        }
    }

    private static ConfigurableApplicationContext run(String... properties) {
        return new SpringApplicationBuilder(WeftTestApplication.class)
                .web(WebApplicationType.REACTIVE)
                .properties("spring.main.banner-mode=off")
                .properties(properties)
                .run();
    }

    private static List<Throwable> causes(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = failure; t != null && !chain.contains(t); t = t.getCause()) {
            chain.add(t);
        }
        assertThat(chain).as("startup failed").isNotEmpty();
        return chain;
    }
}
