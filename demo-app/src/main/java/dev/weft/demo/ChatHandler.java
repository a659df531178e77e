package dev.weft.demo;

import dev.weft.spring.boot.websocket.WeftWebSocketSession;
import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.WebSocketMessage;
import org.springframework.web.reactive.socket.WebSocketSession;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import tools.jackson.databind.json.JsonMapper;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A chat room: every text message a client sends is broadcast, as JSON, to every connected client. Each
 * client first gets a {@code welcome} line naming it and the HTTP version its WebSocket runs over (HTTP/1.1, or
 * HTTP/2.0 when the client opened it with RFC 8441). A client too slow to keep up misses messages rather than
 * holding the others back.
 */
public class ChatHandler implements WebSocketHandler {

    /** Longest chat message kept, in characters; longer ones are cut. */
    static final int MAX_TEXT = 500;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Sinks.Many<String> room = Sinks.many().multicast().directBestEffort();
    private final AtomicInteger guests = new AtomicInteger();

    @Override
    public Mono<Void> handle(WebSocketSession session) {
        String name = "guest-" + guests.incrementAndGet();
        String protocol = session instanceof WeftWebSocketSession weft ? weft.httpVersion() : "unknown";
        Mono<Void> incoming = session.receive()
                .filter(message -> message.getType() == WebSocketMessage.Type.TEXT)
                .map(WebSocketMessage::getPayloadAsText)
                .map(String::strip)
                .filter(text -> !text.isEmpty())
                .doOnNext(text -> broadcast(json("message", "from", name, "text", cut(text))))
                .doFinally(signal -> broadcast(json("left", "from", name)))
                .then();
        Flux<WebSocketMessage> outgoing = Flux.concat(
                        Mono.just(json("welcome", "name", name, "protocol", protocol)),
                        Mono.fromRunnable(() -> broadcast(json("joined", "from", name))).then(Mono.<String>empty()),
                        room.asFlux())
                .map(session::textMessage);
        return Mono.zip(incoming, session.send(outgoing)).then();
    }

    private void broadcast(String line) {
        room.tryEmitNext(line); // FAIL_ZERO_SUBSCRIBER (nobody here) and slow subscribers just miss it
    }

    private static String cut(String text) {
        return text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT);
    }

    private static String json(String type, String... keysAndValues) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("type", type);
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            fields.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return JSON.writeValueAsString(fields);
    }
}
