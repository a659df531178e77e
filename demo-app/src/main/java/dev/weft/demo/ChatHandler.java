package dev.weft.demo;

import dev.weft.spring.boot.websocket.WeftWebSocketSession;
import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.WebSocketMessage;
import org.springframework.web.reactive.socket.WebSocketSession;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.concurrent.Queues;
import tools.jackson.databind.json.JsonMapper;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A chat room: every text message a client sends is broadcast, as JSON, to every connected client. Each
 * client first gets a {@code welcome} line naming it and the HTTP version its WebSocket runs over (HTTP/1.1, or
 * HTTP/2.0 when the client opened it with RFC 8441); it is in the room before that line is sent, so it gets
 * every line broadcast after it. The others are told when it {@code joined} and {@code left}.
 *
 * <p>Every client gets the room's lines in the same order. Each has its own queue of {@link #BACKLOG} lines: a
 * client too slow to keep up misses lines once its queue is full, rather than holding the others back.
 */
public class ChatHandler implements WebSocketHandler {

    /** Longest chat message kept, in characters; longer ones are cut. */
    static final int MAX_TEXT = 500;
    /** Lines queued for one client before it misses the next ones. */
    static final int BACKLOG = 256;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final AtomicInteger guests = new AtomicInteger();
    /** Serialises joining, leaving and broadcasting, so every member gets the lines in one order. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by {@link #lock}. */
    private final List<Member> members = new ArrayList<>();

    /** One client in the room and the lines waiting to be sent to it. */
    private record Member(String name, Sinks.Many<String> lines) {
    }

    @Override
    public Mono<Void> handle(WebSocketSession session) {
        return Mono.defer(() -> {
            String name = "guest-" + guests.incrementAndGet();
            String protocol = session instanceof WeftWebSocketSession weft ? weft.httpVersion() : "unknown";
            Member me = new Member(name, Sinks.many().unicast()
                    .onBackpressureBuffer(Queues.<String>get(BACKLOG).get()));
            me.lines().tryEmitNext(json("welcome", "name", name, "protocol", protocol));
            join(me);
            Mono<Void> incoming = session.receive()
                    .filter(message -> message.getType() == WebSocketMessage.Type.TEXT)
                    .map(WebSocketMessage::getPayloadAsText)
                    .map(String::strip)
                    .filter(text -> !text.isEmpty())
                    .doOnNext(text -> broadcast(json("message", "from", name, "text", cut(text))))
                    .doFinally(signal -> leave(me))
                    .then();
            Mono<Void> outgoing = session.send(me.lines().asFlux().map(session::textMessage));
            return Mono.zip(incoming, outgoing).then();
        });
    }

    private void join(Member member) {
        lock.lock();
        try {
            sendLocked(json("joined", "from", member.name()));
            members.add(member);
        } finally {
            lock.unlock();
        }
    }

    private void leave(Member member) {
        lock.lock();
        try {
            if (members.remove(member)) {
                member.lines().tryEmitComplete();
                sendLocked(json("left", "from", member.name()));
            }
        } finally {
            lock.unlock();
        }
    }

    private void broadcast(String line) {
        lock.lock();
        try {
            sendLocked(line);
        } finally {
            lock.unlock();
        }
    }

    /** Queues {@code line} for every member; hands it to the session's sender, which writes on its own thread. */
    private void sendLocked(String line) {
        for (Member m : members) {
            m.lines().tryEmitNext(line); // FAIL_OVERFLOW: that member is BACKLOG lines behind and misses it
        }
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
