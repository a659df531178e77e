package dev.weft.spring.boot.websocket;

import dev.weft.httpserver.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.web.reactive.socket.WebSocketMessage;
import reactor.core.publisher.Flux;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The back-pressured publisher behind {@code WebSocketSession.receive()}. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InboundMessagesTest {

    private final InboundMessages inbound = new InboundMessages();

    private static WebSocketMessage text(String s) {
        return new WebSocketMessage(WebSocketMessage.Type.TEXT,
                DefaultDataBufferFactory.sharedInstance.wrap(s.getBytes(StandardCharsets.UTF_8)));
    }

    /** Delivers {@code count} messages on a virtual thread (as the session's thread would) and counts them. */
    private Thread deliverInBackground(int count, AtomicInteger delivered) {
        return Thread.ofVirtual().start(() -> {
            try {
                for (int i = 0; i < count; i++) {
                    inbound.deliver(text("m" + i));
                    delivered.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    @Test
    void theSessionThreadWaitsWhileTheSubscriberHasNoDemand() throws Exception {
        Recorder subscriber = new Recorder(1);
        inbound.subscribe(subscriber);
        AtomicInteger delivered = new AtomicInteger();

        Thread session = deliverInBackground(5, delivered);
        // m0 goes to the subscriber, m1 waits in the queue, the third deliver blocks.
        awaitBlocked(session, delivered, 2);
        assertThat(subscriber.received).hasSize(1);

        subscriber.request(4);
        assertThat(session.join(Await.DEFAULT_LIMIT)).as("the session thread ended").isTrue();
        assertThat(delivered).hasValue(5);
        assertThat(subscriber.received).extracting(WebSocketMessage::getPayloadAsText)
                .containsExactly("m0", "m1", "m2", "m3", "m4");
    }

    @Test
    void messagesBeforeTheSubscriptionAreKeptThenTheEndIsSignalled() throws Exception {
        inbound.deliver(text("early"));
        inbound.deliver(text("later"));
        inbound.complete();

        assertThat(Flux.from(inbound).map(WebSocketMessage::getPayloadAsText).collectList()
                .block(Duration.ofSeconds(5))).containsExactly("early", "later");
    }

    @Test
    void withoutASubscriberMessagesBeyondTheEarlyLimitAreDroppedWithoutBlocking() throws Exception {
        for (int i = 0; i < InboundMessages.EARLY_LIMIT + 10; i++) {
            inbound.deliver(text("m" + i)); // must not block
        }
        inbound.complete();

        assertThat(Flux.from(inbound).collectList().block(Duration.ofSeconds(5)))
                .hasSize(InboundMessages.EARLY_LIMIT);
    }

    @Test
    void cancellingReleasesTheBlockedSessionThreadAndDropsLaterMessages() throws Exception {
        Recorder subscriber = new Recorder(0);
        inbound.subscribe(subscriber);
        AtomicInteger delivered = new AtomicInteger();
        Thread session = deliverInBackground(10, delivered);
        awaitBlocked(session, delivered, 1);

        subscriber.cancel();

        assertThat(session.join(Await.DEFAULT_LIMIT)).as("the session thread ended").isTrue();
        assertThat(delivered).hasValue(10);
        assertThat(subscriber.received).isEmpty();
    }

    @Test
    void discardUnblocksButTheEndIsStillSignalled() throws Exception {
        Recorder subscriber = new Recorder(0);
        inbound.subscribe(subscriber);
        AtomicInteger delivered = new AtomicInteger();
        Thread session = deliverInBackground(3, delivered);
        awaitBlocked(session, delivered, 1);

        inbound.discard();
        assertThat(session.join(Await.DEFAULT_LIMIT)).as("the session thread ended").isTrue();
        inbound.fail(new IllegalStateException("connection lost"));

        assertThat(subscriber.error).hasMessage("connection lost");
        assertThat(subscriber.received).isEmpty();
    }

    @Test
    void aSecondSubscriberIsRefused() {
        inbound.subscribe(new Recorder(0));

        assertThatThrownBy(() -> Flux.from(inbound).blockLast(Duration.ofSeconds(5)))
                .hasMessage("receive() allows only one subscriber");
    }

    @Test
    void demandFromAnotherThreadDeliversAQueuedMessage() throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        Recorder subscriber = new Recorder(0);
        inbound.subscribe(subscriber);
        inbound.deliver(text("queued")); // queued, no demand: returns at once

        Thread.ofVirtual().start(() -> {
            subscriber.request(1);
            received.countDown();
        });

        assertThat(received.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(subscriber.received).extracting(WebSocketMessage::getPayloadAsText)
                .containsExactly("queued");
    }

    /** Records what it receives; requests {@code initial} at first, more on {@link #request}. */
    private static final class Recorder implements Subscriber<WebSocketMessage> {
        final List<WebSocketMessage> received = new CopyOnWriteArrayList<>();
        final long initial;
        volatile Subscription subscription;
        volatile Throwable error;

        Recorder(long initial) {
            this.initial = initial;
        }

        @Override
        public void onSubscribe(Subscription s) {
            subscription = s;
            if (initial > 0) {
                s.request(initial);
            }
        }

        @Override
        public void onNext(WebSocketMessage message) {
            received.add(message);
        }

        @Override
        public void onError(Throwable t) {
            error = t;
        }

        @Override
        public void onComplete() {
        }

        void request(long n) {
            subscription.request(n);
        }

        void cancel() {
            subscription.cancel();
        }
    }

    /**
     * Waits until the session thread has delivered {@code n} messages and is blocked in the next delivery: a
     * thread waiting there is parked, which its state shows.
     */
    private static void awaitBlocked(Thread session, AtomicInteger delivered, int n) {
        Await.until(n + " messages delivered and the next delivery blocked",
                () -> delivered.get() == n && session.getState() == Thread.State.WAITING);
        assertThat(delivered).hasValue(n);
    }
}
