package dev.weft.mvcdemo;

import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import org.springframework.web.socket.config.annotation.EnableWebSocketMessageBroker;
import org.springframework.web.socket.config.annotation.StompEndpointRegistry;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;

/**
 * STOMP over WebSocket for the chat page, with Spring's simple broker: clients connect to {@code /chat-ws}, send
 * to {@code /app/chat} and subscribe to {@code /topic/chat}. Only pages of this origin may open the WebSocket
 * (Spring's default same-origin check of the handshake's {@code Origin}), so another site cannot use a visitor's
 * cookies to chat in their name.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSocketMessageBroker
class ChatConfiguration implements WebSocketMessageBrokerConfigurer {

    @Override
    public void registerStompEndpoints(StompEndpointRegistry registry) {
        registry.addEndpoint("/chat-ws");
        // one writer's lines are handled, and so shown, in the order they were typed
        registry.setPreserveReceiveOrder(true);
    }

    @Override
    public void configureMessageBroker(MessageBrokerRegistry registry) {
        registry.enableSimpleBroker("/topic");
        registry.setApplicationDestinationPrefixes("/app");
        registry.setPreservePublishOrder(true);
    }
}
