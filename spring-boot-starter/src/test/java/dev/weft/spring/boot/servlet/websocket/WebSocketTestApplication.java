package dev.weft.spring.boot.servlet.websocket;

import jakarta.websocket.OnMessage;
import jakarta.websocket.server.PathParam;
import jakarta.websocket.server.ServerEndpoint;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.handler.annotation.SendTo;
import org.springframework.messaging.simp.SimpMessagingTemplate;
import org.springframework.messaging.simp.annotation.SendToUser;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.socket.adapter.NativeWebSocketSession;
import org.springframework.web.socket.BinaryMessage;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.EnableWebSocketMessageBroker;
import org.springframework.web.socket.config.annotation.StompEndpointRegistry;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;
import org.springframework.web.socket.handler.AbstractWebSocketHandler;
import org.springframework.web.socket.server.standard.ServerEndpointExporter;
import org.springframework.web.socket.server.standard.ServletServerContainerFactoryBean;

import java.security.Principal;

/**
 * A Spring MVC application with spring-websocket, as it would run on Tomcat, with nothing specific to Weft: a
 * raw {@code WebSocketHandler} at {@code /echo} (text and binary), STOMP with the simple broker at
 * {@code /stomp} (WebSocket) and {@code /sockjs} (SockJS), an annotated Jakarta endpoint that
 * {@link ServerEndpointExporter} deploys, Jakarta container defaults from {@link ServletServerContainerFactoryBean},
 * and HTTP basic authentication in front of the STOMP endpoints.
 */
@SpringBootApplication
@EnableWebSocket
@EnableWebSocketMessageBroker
public class WebSocketTestApplication implements WebSocketConfigurer, WebSocketMessageBrokerConfigurer {

    /** The text message buffer size the container is given. */
    static final int TEXT_BUFFER = 16 * 1024;
    /** The binary message buffer size the container is given. */
    static final int BINARY_BUFFER = 24 * 1024;
    /** The session idle timeout the container is given, in milliseconds, unless {@value #IDLE_TIMEOUT_PROPERTY} says. */
    static final long IDLE_TIMEOUT = 90_000;
    /** The property that sets another idle timeout, in milliseconds. */
    static final String IDLE_TIMEOUT_PROPERTY = "test.websocket.idle-timeout-ms";

    /** Runs the application (for trying it by hand). */
    public static void main(String[] args) {
        SpringApplication.run(WebSocketTestApplication.class, args);
    }

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
        http.authorizeHttpRequests(a -> a.requestMatchers("/stomp/**", "/sockjs/**").authenticated()
                        .anyRequest().permitAll())
                .httpBasic(Customizer.withDefaults())
                .csrf(csrf -> csrf.ignoringRequestMatchers("/api/**", "/sockjs/**"));
        return http.build();
    }

    /** The container's defaults; {@value #IDLE_TIMEOUT_PROPERTY} may change the idle timeout. */
    @Bean
    static ServletServerContainerFactoryBean webSocketContainer(
            @Value("${" + IDLE_TIMEOUT_PROPERTY + ":" + IDLE_TIMEOUT + "}") long idleTimeout) {
        ServletServerContainerFactoryBean container = new ServletServerContainerFactoryBean();
        container.setMaxTextMessageBufferSize(TEXT_BUFFER);
        container.setMaxBinaryMessageBufferSize(BINARY_BUFFER);
        container.setMaxSessionIdleTimeout(idleTimeout);
        return container;
    }

    @Bean
    static ServerEndpointExporter serverEndpointExporter() {
        ServerEndpointExporter exporter = new ServerEndpointExporter();
        exporter.setAnnotatedEndpointClasses(JakartaEcho.class);
        return exporter;
    }

    /** A plain Jakarta WebSocket endpoint, deployed on the container by Spring's {@link ServerEndpointExporter}. */
    @ServerEndpoint("/jakarta-echo/{room}")
    public static class JakartaEcho {

        /** Sends the message back, prefixed with the room. */
        @OnMessage
        public String echo(String message, @PathParam("room") String room) {
            return room + ":" + message;
        }
    }

    @Override
    public void registerWebSocketHandlers(WebSocketHandlerRegistry registry) {
        registry.addHandler(new EchoHandler(), "/echo");
    }

    @Override
    public void registerStompEndpoints(StompEndpointRegistry registry) {
        registry.addEndpoint("/stomp");
        registry.addEndpoint("/sockjs").withSockJS();
        // a session's frames are handled in the order they came, so a SUBSCRIBE is in place before the next SEND
        registry.setPreserveReceiveOrder(true);
    }

    @Override
    public void configureMessageBroker(MessageBrokerRegistry registry) {
        registry.enableSimpleBroker("/topic", "/queue");
        registry.setApplicationDestinationPrefixes("/app");
    }

    /** Echoes text and binary messages; {@code limits} is answered with the session's limits. */
    static final class EchoHandler extends AbstractWebSocketHandler {

        @Override
        protected void handleTextMessage(WebSocketSession session, TextMessage message) throws Exception {
            if (message.getPayload().equals("limits")) {
                long idle = ((NativeWebSocketSession) session).getNativeSession(jakarta.websocket.Session.class)
                        .getMaxIdleTimeout();
                session.sendMessage(new TextMessage("text=" + session.getTextMessageSizeLimit() + " binary="
                        + session.getBinaryMessageSizeLimit() + " idle=" + idle));
                return;
            }
            session.sendMessage(message);
        }

        @Override
        protected void handleBinaryMessage(WebSocketSession session, BinaryMessage message) throws Exception {
            session.sendMessage(message);
        }
    }

    /** The STOMP application destinations and an HTTP endpoint that broadcasts. */
    @Controller
    static class ChatController {

        private final SimpMessagingTemplate messaging;

        ChatController(SimpMessagingTemplate messaging) {
            this.messaging = messaging;
        }

        /** A chat line to every subscriber of {@code /topic/chat}, signed with the sender's name. */
        @MessageMapping("/chat")
        @SendTo("/topic/chat")
        String chat(String text, Principal user) {
            return user.getName() + ": " + text;
        }

        /** The sender's name, to the sender alone. */
        @MessageMapping("/whoami")
        @SendToUser("/queue/whoami")
        String whoami(Principal user) {
            return user.getName();
        }

        /** Broadcasts the request body to {@code /topic/announcements}. */
        @PostMapping("/api/announce")
        @ResponseBody
        String announce(@RequestBody String text) {
            messaging.convertAndSend("/topic/announcements", text);
            return "sent";
        }
    }
}
