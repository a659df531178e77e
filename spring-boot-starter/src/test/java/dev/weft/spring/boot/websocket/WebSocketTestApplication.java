package dev.weft.spring.boot.websocket;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.handler.SimpleUrlHandlerMapping;
import org.springframework.web.reactive.socket.CloseStatus;
import org.springframework.web.reactive.socket.HandshakeInfo;
import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.WebSocketMessage;
import org.springframework.web.reactive.socket.WebSocketSession;
import reactor.core.publisher.Mono;

import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A WebFlux application whose only WebSocket configuration is a {@link HandlerMapping} to its handlers, as an
 * application written for Reactor Netty would have:
 * <ul>
 *   <li>{@code /echo} echoes text and binary messages (subprotocols {@code chat} and {@code superchat});
 *   <li>{@code /info} sends one line describing the session (HTTP version, subprotocol, path, remote address
 *       known) and completes, which closes the session with 1000;
 *   <li>{@code /close} closes the session with the code and reason of the first message ({@code "4001 why"});
 *   <li>{@code /observe} echoes, and records the close status the session ended with in {@link #closes}.
 * </ul>
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
class WebSocketTestApplication {

    /** Close statuses seen by {@code /observe} sessions, in order. */
    static final BlockingQueue<CloseStatus> closes = new LinkedBlockingQueue<>();

    @Bean
    HandlerMapping webSocketMapping() {
        return new SimpleUrlHandlerMapping(Map.of(
                "/echo", new EchoHandler(),
                "/info", (WebSocketHandler) WebSocketTestApplication::info,
                "/close", (WebSocketHandler) WebSocketTestApplication::closeAsAsked,
                "/observe", (WebSocketHandler) WebSocketTestApplication::observe), 1);
    }

    static final class EchoHandler implements WebSocketHandler {
        @Override
        public List<String> getSubProtocols() {
            return List.of("chat", "superchat");
        }

        @Override
        public Mono<Void> handle(WebSocketSession session) {
            return session.send(session.receive().map(message -> echo(session, message)));
        }
    }

    static WebSocketMessage echo(WebSocketSession session, WebSocketMessage message) {
        if (message.getType() == WebSocketMessage.Type.TEXT) {
            return session.textMessage(message.getPayloadAsText());
        }
        DataBuffer payload = message.getPayload();
        byte[] bytes = new byte[payload.readableByteCount()];
        payload.read(bytes);
        return session.binaryMessage(factory -> factory.wrap(bytes));
    }

    static Mono<Void> info(WebSocketSession session) {
        HandshakeInfo info = session.getHandshakeInfo();
        String line = "version=" + session.getAttributes().get(WeftWebSocketSession.HTTP_VERSION_ATTRIBUTE)
                + " subprotocol=" + info.getSubProtocol()
                + " path=" + info.getUri().getPath()
                + " remote=" + (info.getRemoteAddress() != null)
                + " weft=" + (session instanceof WeftWebSocketSession);
        return session.send(Mono.just(session.textMessage(line)));
    }

    static Mono<Void> closeAsAsked(WebSocketSession session) {
        return session.receive().next().flatMap(message -> {
            String[] codeAndReason = message.getPayloadAsText().split(" ", 2);
            return session.close(new CloseStatus(Integer.parseInt(codeAndReason[0]), codeAndReason[1]));
        });
    }

    static Mono<Void> observe(WebSocketSession session) {
        session.closeStatus().subscribe(closes::add);
        return session.send(session.receive().map(message -> echo(session, message)));
    }
}
