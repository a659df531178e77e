package dev.weft.spring.boot.autoconfigure;

import dev.weft.httpserver.config.ForwardedConfig;
import dev.weft.spring.boot.WeftReactiveWebServerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code server.forward-headers-strategy} and {@code weft.server.forwarded.*}: {@code native} is the engine's
 * handling, on by default on a cloud platform that uses forwarded headers, off for {@code framework} and
 * {@code none}.
 */
@Timeout(60)
class ForwardHeadersStrategyTest {

    private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(NettyReactiveWebServerAutoConfiguration.class,
                    WeftReactiveWebServerAutoConfiguration.class));

    @Test
    void offByDefault() {
        assertThat(forwarded()).isEqualTo(ForwardedConfig.defaults());
    }

    @Test
    void nativeStrategyIsTheEnginesHandling() {
        assertThat(forwarded("server.forward-headers-strategy=native").enabled()).isTrue();
    }

    @Test
    void onByDefaultOnACloudPlatformUnlessAStrategyIsSet() {
        assertThat(forwarded("spring.main.cloud-platform=kubernetes").enabled()).isTrue();
        assertThat(forwarded("spring.main.cloud-platform=kubernetes", "server.forward-headers-strategy=framework")
                .enabled()).isFalse();
        assertThat(forwarded("spring.main.cloud-platform=kubernetes", "server.forward-headers-strategy=none")
                .enabled()).isFalse();
    }

    @Test
    void weftPropertiesReachTheServerConfig() {
        assertThat(forwarded("weft.server.forwarded.enabled=true",
                "weft.server.forwarded.trusted-proxies=192.0.2.0/24, internal",
                "weft.server.forwarded.proxy-protocol=true"))
                .isEqualTo(new ForwardedConfig(true, "192.0.2.0/24, internal", true));
    }

    @Test
    void anInvalidTrustedProxyFailsTheContextNamingTheProperty() {
        runner.withPropertyValues("weft.server.forwarded.trusted-proxies=proxy.example").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("forwarded.trusted-proxies");
        });
    }

    private ForwardedConfig forwarded(String... properties) {
        ForwardedConfig[] config = new ForwardedConfig[1];
        runner.withPropertyValues(properties).run(context -> config[0] = context
                .getBean(WeftReactiveWebServerFactory.class).buildServerConfig().forwarded());
        return config[0];
    }
}
