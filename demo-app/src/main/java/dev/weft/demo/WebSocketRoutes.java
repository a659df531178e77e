package dev.weft.demo;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.handler.SimpleUrlHandlerMapping;

import java.util.Map;

/**
 * Maps {@code /ws/chat} to the {@link ChatHandler}. That is all the WebSocket configuration the application
 * needs: the Weft starter makes WebFlux upgrade the requests with Weft's engine.
 */
@Configuration(proxyBeanMethods = false)
class WebSocketRoutes {

    @Bean
    HandlerMapping webSocketMapping() {
        return new SimpleUrlHandlerMapping(Map.of("/ws/chat", new ChatHandler()), 1);
    }
}
