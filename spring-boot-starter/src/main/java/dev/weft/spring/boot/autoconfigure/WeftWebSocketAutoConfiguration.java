package dev.weft.spring.boot.autoconfigure;

import dev.weft.spring.boot.WeftReactiveWebServerFactory;
import dev.weft.spring.boot.websocket.WeftWebSocketServicePostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.socket.server.RequestUpgradeStrategy;

/**
 * WebFlux WebSocket support on Weft: {@code WebSocketHandler}s mapped by the application run over HTTP/1.1 and
 * HTTP/2 (RFC 8441) through {@code WeftRequestUpgradeStrategy}, with the limits of
 * {@code weft.server.websocket.*}.
 */
@AutoConfiguration(after = WeftReactiveWebServerAutoConfiguration.class)
@ConditionalOnClass(RequestUpgradeStrategy.class)
@ConditionalOnWebApplication(type = Type.REACTIVE)
@ConditionalOnBean(WeftReactiveWebServerFactory.class)
public final class WeftWebSocketAutoConfiguration {

    @Bean
    static WeftWebSocketServicePostProcessor weftWebSocketServicePostProcessor() {
        return new WeftWebSocketServicePostProcessor();
    }
}
