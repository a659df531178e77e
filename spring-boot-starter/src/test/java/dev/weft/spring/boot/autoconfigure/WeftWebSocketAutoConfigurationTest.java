package dev.weft.spring.boot.autoconfigure;

import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.spring.boot.WeftReactiveWebServerFactory;
import dev.weft.spring.boot.websocket.WeftRequestUpgradeStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.socket.server.RequestUpgradeStrategy;
import org.springframework.web.reactive.socket.server.WebSocketService;
import org.springframework.web.reactive.socket.server.support.HandshakeWebSocketService;
import org.springframework.web.reactive.socket.server.support.WebSocketHandlerAdapter;
import org.springframework.web.reactive.socket.server.upgrade.ReactorNettyRequestUpgradeStrategy;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code weft.server.websocket.*} and the installation of Weft's upgrade strategy into WebFlux. */
@Timeout(60)
class WeftWebSocketAutoConfigurationTest {

    private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(NettyReactiveWebServerAutoConfiguration.class,
                    WeftReactiveWebServerAutoConfiguration.class, WeftWebSocketAutoConfiguration.class,
                    WebFluxAutoConfiguration.class));

    private static RequestUpgradeStrategy strategyOf(WebSocketService service) {
        assertThat(service).isExactlyInstanceOf(HandshakeWebSocketService.class);
        return ((HandshakeWebSocketService) service).getUpgradeStrategy();
    }

    @Test
    void webFluxsWebSocketHandlerAdapterUpgradesWithWeft() {
        runner.run(context -> {
            WebSocketHandlerAdapter adapter = context.getBean("webFluxWebSocketHandlerAdapter",
                    WebSocketHandlerAdapter.class);
            assertThat(strategyOf(adapter.getWebSocketService())).isInstanceOf(WeftRequestUpgradeStrategy.class);
            assertThat(adapter.getOrder()).as("WebFlux's order is kept").isEqualTo(3);
        });
    }

    @Test
    void anApplicationsOwnDefaultAdapterAndServiceUpgradeWithWeft() {
        runner.withUserConfiguration(OwnWebSocketBeans.class).run(context -> {
            WebSocketHandlerAdapter adapter = context.getBean("ownAdapter", WebSocketHandlerAdapter.class);
            assertThat(strategyOf(adapter.getWebSocketService())).isInstanceOf(WeftRequestUpgradeStrategy.class);
            assertThat(adapter.getOrder()).isEqualTo(7);
            HandshakeWebSocketService service = context.getBean("ownService", HandshakeWebSocketService.class);
            assertThat(service.getUpgradeStrategy()).isInstanceOf(WeftRequestUpgradeStrategy.class);
            assertThat(service.getSessionAttributePredicate()).as("kept").isNotNull();
            assertThat(service.getSessionAttributePredicate().test("user")).isTrue();
        });
    }

    @Test
    void aCustomUpgradeStrategyIsLeftAlone() {
        runner.withUserConfiguration(CustomStrategy.class).run(context -> {
            HandshakeWebSocketService service = context.getBean(HandshakeWebSocketService.class);
            assertThat(service.getUpgradeStrategy()).isSameAs(CustomStrategy.STRATEGY);
        });
    }

    @Test
    void backsOffWhenAnotherServerIsUsed() {
        runner.withBean(NettyReactiveWebServerFactory.class, () -> new NettyReactiveWebServerFactory(0))
                .run(context -> {
                    assertThat(context).doesNotHaveBean(WeftReactiveWebServerFactory.class);
                    WebSocketHandlerAdapter adapter = context.getBean(WebSocketHandlerAdapter.class);
                    assertThat(strategyOf(adapter.getWebSocketService()))
                            .isInstanceOf(ReactorNettyRequestUpgradeStrategy.class);
                });
    }

    @Test
    void webSocketPropertyDefaultsAreTheEngineDefaults() {
        assertThat(new WeftServerProperties().getWebsocket().toConfig()).isEqualTo(WebSocketConfig.defaults());
    }

    @Test
    void webSocketPropertiesReachTheServerConfig() {
        runner.withPropertyValues("weft.server.websocket.max-message-size=64KB",
                "weft.server.websocket.max-frame-size=16KB", "weft.server.websocket.compression=false",
                "weft.server.websocket.compression-min-size=1KB", "weft.server.websocket.idle-timeout=30s",
                "weft.server.websocket.ping-interval=10s", "weft.server.websocket.close-timeout=2s",
                "weft.server.websocket.max-queued-bytes=1MB")
                .run(context -> {
                    WebSocketConfig config = context.getBean(WeftReactiveWebServerFactory.class).buildServerConfig()
                            .webSocket();
                    assertThat(config).isEqualTo(new WebSocketConfig(64 * 1024, 16 * 1024, false, 1024,
                            Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(2), 1024 * 1024));
                });
    }

    @Test
    void invalidWebSocketPropertyFailsTheContextNamingTheProperty() {
        runner.withPropertyValues("weft.server.websocket.idle-timeout=0s").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageContaining("weft.server")
                    .hasMessageContaining("websocket.idle-timeout")
                    .hasMessageContaining("idleTimeout must be longer than zero, was PT0S");
        });
        runner.withPropertyValues("weft.server.websocket.max-message-size=3GB").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageContaining("websocket.max-message-size")
                    .hasMessageContaining("maxMessageSize must be at most");
        });
    }

    @Test
    void webSocketPropertiesHaveGeneratedMetadata() throws Exception {
        Map<String, JsonNode> properties = ConfigurationMetadata.properties();

        assertThat(properties).containsKeys("weft.server.websocket.max-message-size",
                "weft.server.websocket.max-frame-size", "weft.server.websocket.compression",
                "weft.server.websocket.compression-min-size", "weft.server.websocket.idle-timeout",
                "weft.server.websocket.ping-interval", "weft.server.websocket.close-timeout",
                "weft.server.websocket.max-queued-bytes");
        JsonNode messageSize = properties.get("weft.server.websocket.max-message-size");
        assertThat(messageSize.path("type").asString()).isEqualTo("org.springframework.util.unit.DataSize");
        assertThat(messageSize.path("defaultValue").asString()).isEqualTo("1MB");
        assertThat(messageSize.path("description").asString()).startsWith("Largest whole text or binary message");
        assertThat(properties.get("weft.server.websocket.idle-timeout").path("defaultValue").asString())
                .isEqualTo("5m");
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnWebSocketBeans {

        @Bean
        WebSocketHandlerAdapter ownAdapter() {
            WebSocketHandlerAdapter adapter = new WebSocketHandlerAdapter();
            adapter.setOrder(7);
            return adapter;
        }

        @Bean
        HandshakeWebSocketService ownService() {
            HandshakeWebSocketService service = new HandshakeWebSocketService();
            service.setSessionAttributePredicate(name -> name.equals("user"));
            return service;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class CustomStrategy {

        static final RequestUpgradeStrategy STRATEGY = (exchange, handler, subProtocol, info) -> {
            throw new UnsupportedOperationException("never called in this test");
        };

        @Bean
        HandshakeWebSocketService customService() {
            return new HandshakeWebSocketService(STRATEGY);
        }
    }
}
