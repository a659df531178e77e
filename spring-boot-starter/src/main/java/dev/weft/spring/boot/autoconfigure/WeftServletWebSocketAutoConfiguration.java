package dev.weft.spring.boot.autoconfigure;

import dev.weft.websocket.jakarta.WeftServerContainer;
import dev.weft.websocket.jakarta.servlet.WebSocketInitializer;
import jakarta.servlet.ServletRequest;
import jakarta.websocket.server.ServerContainer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;

/**
 * Jakarta WebSocket in Weft's servlet container, as Spring Boot sets it up in Tomcat and Jetty: when the
 * application has {@code weft-websocket-jakarta} on its class path, every {@code WeftServletWebServerFactory}
 * installs a {@link WeftServerContainer} (the {@code jakarta.websocket.server.ServerContainer} context attribute)
 * in its servlet context. spring-websocket's {@code @EnableWebSocket} handlers, STOMP and SockJS then run on it
 * through Spring's standard upgrade strategy, and {@code ServerEndpointExporter} deploys {@code @ServerEndpoint}
 * beans on it.
 *
 * <p>Its sessions have the limits of {@code weft.server.websocket.*} (largest message and frame, idle timeout,
 * compression); the Jakarta defaults of the container (text and binary message buffer sizes, session idle
 * timeout, async send timeout) are set as on any server, with Spring's {@code ServletServerContainerFactoryBean}.
 */
@AutoConfiguration(after = WeftServletWebServerAutoConfiguration.class)
@ConditionalOnClass({ ServletRequest.class, ServerContainer.class, WebSocketInitializer.class })
@ConditionalOnWebApplication(type = Type.SERVLET)
public final class WeftServletWebSocketAutoConfiguration {

    @Bean
    WeftServletWebSocketCustomizer weftServletWebSocketCustomizer() {
        return new WeftServletWebSocketCustomizer();
    }
}
