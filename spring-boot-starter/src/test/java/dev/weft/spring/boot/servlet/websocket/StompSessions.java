package dev.weft.spring.boot.servlet.websocket;

import org.springframework.messaging.converter.StringMessageConverter;
import org.springframework.messaging.simp.stomp.StompFrameHandler;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandlerAdapter;
import org.springframework.web.socket.WebSocketHttpHeaders;
import org.springframework.web.socket.client.WebSocketClient;
import org.springframework.web.socket.messaging.WebSocketStompClient;

import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A STOMP client session (Spring's {@link WebSocketStompClient}) signed in with HTTP basic authentication, whose
 * subscriptions collect the text payloads they receive, per destination.
 */
final class StompSessions {

    /** The user destination {@code /app/whoami} answers on. */
    static final String WHOAMI = "/user/queue/whoami";

    private final Map<String, BlockingQueue<String>> received = new ConcurrentHashMap<>();
    private final StompSession session;
    private String whoami;

    private StompSessions(StompSession session) {
        this.session = session;
    }

    /**
     * Connects to {@code url} over {@code transport} (a WebSocket client or a SockJS client) as {@code user},
     * subscribes to {@code destinations} and to {@value #WHOAMI}, and asks {@code /app/whoami}: the server handles
     * a session's frames in order, so once the answer is back every subscription is in place.
     */
    static StompSessions connect(WebSocketClient transport, String url, String user, String... destinations)
            throws Exception {
        WebSocketStompClient client = new WebSocketStompClient(transport);
        client.setMessageConverter(new StringMessageConverter());
        WebSocketHttpHeaders handshake = new WebSocketHttpHeaders();
        handshake.setBasicAuth(user, OnWeftWithWebSocket.PASSWORD);
        StompSession session = client.connectAsync(url, handshake, new StompSessionHandlerAdapter() {
        }).get(20, TimeUnit.SECONDS);
        StompSessions stomp = new StompSessions(session);
        for (String destination : destinations) {
            stomp.subscribe(destination);
        }
        stomp.subscribe(WHOAMI);
        stomp.send("/app/whoami", "");
        stomp.whoami = stomp.next(WHOAMI);
        return stomp;
    }

    private void subscribe(String destination) {
        BlockingQueue<String> queue = received.computeIfAbsent(destination, d -> new LinkedBlockingQueue<>());
        session.subscribe(destination, new StompFrameHandler() {
            @Override
            public Type getPayloadType(StompHeaders headers) {
                return String.class;
            }

            @Override
            public void handleFrame(StompHeaders headers, Object payload) {
                queue.add((String) payload);
            }
        });
    }

    /** The name the server answered {@code /app/whoami} with. */
    String whoami() {
        return whoami;
    }

    /** Sends {@code text} to {@code destination}. */
    void send(String destination, String text) {
        session.send(destination, text);
    }

    /** The next payload received on {@code destination}, waiting up to 20 s for it. */
    String next(String destination) throws InterruptedException {
        String payload = received.get(destination).poll(20, TimeUnit.SECONDS);
        assertThat(payload).as("a message on " + destination).isNotNull();
        return payload;
    }

    /** What arrived on {@code destination} and was not taken yet. */
    List<String> pending(String destination) {
        return List.copyOf(received.get(destination));
    }

    /** Disconnects. */
    void disconnect() {
        session.disconnect();
    }
}
