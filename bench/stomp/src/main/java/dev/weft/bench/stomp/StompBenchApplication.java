package dev.weft.bench.stomp;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.handler.annotation.SendTo;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import org.springframework.stereotype.Controller;
import org.springframework.web.socket.config.annotation.EnableWebSocketMessageBroker;
import org.springframework.web.socket.config.annotation.StompEndpointRegistry;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;

/**
 * The STOMP broadcast app of {@code bench/run-ws-jakarta.sh}: STOMP over WebSocket at {@code /stomp} (no SockJS),
 * Spring's simple broker on {@code /topic}, and a controller that broadcasts every message sent to
 * {@code /app/broadcast} to the subscribers of {@code /topic/broadcast}, the way a chat or a live-feed app does.
 *
 * <p>The same source is compiled by {@code bench/stomp/weft}, {@code bench/stomp/tomcat} and {@code bench/stomp/jetty};
 * only the embedded servlet container (and its Jakarta WebSocket implementation) on the class path differs. Once the
 * server listens, the app prints one line {@code ready <web server class> <port>} on stdout so the harness can
 * check that the intended server is the one being measured.
 */
@SpringBootApplication
public class StompBenchApplication {

    /** Starts the app; {@code --server.port=PORT} picks the port. */
    public static void main(String[] args) {
        SpringApplication.run(StompBenchApplication.class, args);
    }

    /** Prints the ready line (the app logs at WARN only, so Boot's own "started on port" is silent). */
    @Bean
    ApplicationListener<WebServerInitializedEvent> readyLine() {
        return event -> {
            System.out.println("ready " + event.getWebServer().getClass().getName() + " "
                    + event.getWebServer().getPort());
            System.out.flush();
        };
    }

    /** STOMP over plain WebSocket at {@code /stomp}; the in-memory simple broker serves {@code /topic/**}. */
    @Configuration
    @EnableWebSocketMessageBroker
    static class BrokerConfig implements WebSocketMessageBrokerConfigurer {

        @Override
        public void registerStompEndpoints(StompEndpointRegistry registry) {
            registry.addEndpoint("/stomp");
        }

        @Override
        public void configureMessageBroker(MessageBrokerRegistry registry) {
            registry.setApplicationDestinationPrefixes("/app");
            registry.enableSimpleBroker("/topic");
        }
    }

    /** Relays every message sent to {@code /app/broadcast} to every subscriber of {@code /topic/broadcast}. */
    @Controller
    static class BroadcastController {

        @MessageMapping("/broadcast")
        @SendTo("/topic/broadcast")
        String broadcast(String text) {
            return text;
        }
    }
}
