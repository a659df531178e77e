package dev.weft.spring.boot.autoconfigure;

import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.config.Http2Config;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.Weft;
import dev.weft.spring.boot.WeftWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.validation.FieldError;

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
    void http2IsOffByDefault() {
        try (ConfigurableApplicationContext context = run("server.port=0")) {
            Http2Config http2 = startedConfig(context).http2();

            assertThat(http2.h2Enabled()).isFalse();
            assertThat(http2.h2cEnabled()).isFalse();
        }
    }

    @Test
    void http2EnabledServesH2AndH2cWithTheWeftLimits() {
        try (ConfigurableApplicationContext context = run("server.port=0", "server.http2.enabled=true",
                "weft.server.http2.max-concurrent-streams=7", "weft.server.http2.initial-window-size=256KB",
                "weft.server.http2.connection-window-size=2MB", "weft.server.http2.max-frame-size=32KB",
                "weft.server.http2.max-header-list-size=20KB", "weft.server.http2.header-table-size=0",
                "weft.server.http2.max-resets-per-second=9", "weft.server.http2.max-control-frames-per-second=11")) {
            Http2Config http2 = startedConfig(context).http2();

            assertThat(http2).isEqualTo(new Http2Config(true, true, 7, 256 * 1024, 2 * 1024 * 1024, 32 * 1024,
                    20 * 1024, 0, 9, 11, true));
        }
    }

    @Test
    void h2cCanBeTurnedOffSeparately() {
        try (ConfigurableApplicationContext context = run("server.port=0", "server.http2.enabled=true",
                "weft.server.http2.h2c=false")) {
            Http2Config http2 = startedConfig(context).http2();

            assertThat(http2.h2Enabled()).isTrue();
            assertThat(http2.h2cEnabled()).isFalse();
        }
    }

    @Test
    void h2cSettingAloneDoesNotEnableHttp2() {
        try (ConfigurableApplicationContext context = run("server.port=0", "weft.server.http2.h2c=true")) {
            Http2Config http2 = startedConfig(context).http2();

            assertThat(http2.h2Enabled()).isFalse();
            assertThat(http2.h2cEnabled()).isFalse();
        }
    }

    @Test
    void frameSizeOutOfRangeFailsStartupNamingTheProperty() {
        Throwable failure = catchThrowable(() -> run("server.port=0", "server.http2.enabled=true",
                "weft.server.http2.max-frame-size=1KB").close());

        assertThat(causes(failure)).filteredOn(BindValidationException.class::isInstance).singleElement()
                .satisfies(e -> assertThat(((BindValidationException) e).getValidationErrors())
                        .singleElement()
                        .satisfies(error -> {
                            assertThat(error).isInstanceOf(FieldError.class);
                            assertThat(((FieldError) error).getField()).isEqualTo("http2.max-frame-size");
                            assertThat(error.getDefaultMessage()).contains("maxFrameSize must be 16384 to 16777215");
                        }));
    }

    @Test
    void invalidHttp2LimitsFailStartupEvenWithHttp2Off() {
        for (String property : List.of("weft.server.http2.max-concurrent-streams=0",
                "weft.server.http2.connection-window-size=1KB", "weft.server.http2.initial-window-size=3GB",
                "weft.server.http2.max-resets-per-second=-1")) {
            Throwable failure = catchThrowable(() -> run("server.port=0", property).close());

            assertThat(causes(failure)).as(property)
                    .anySatisfy(e -> assertThat(e).isInstanceOf(BindValidationException.class));
        }
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

    private static ServerConfig startedConfig(ConfigurableApplicationContext context) {
        WebServer webServer = ((ReactiveWebServerApplicationContext) context).getWebServer();
        assertThat(webServer).isInstanceOf(WeftWebServer.class);
        HttpServer engine = ((WeftWebServer) webServer).getServer();
        assertThat(engine).as("running engine server").matches(Weft::isWeft, "a Weft server");
        return Weft.config(engine);
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
