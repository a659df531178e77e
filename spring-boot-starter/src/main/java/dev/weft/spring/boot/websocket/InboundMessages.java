package dev.weft.spring.boot.websocket;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.springframework.web.reactive.socket.WebSocketMessage;
import reactor.core.publisher.Operators;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The messages a session receives, as the publisher behind {@code WebSocketSession.receive()}: fed by the
 * engine's listener callbacks, which {@linkplain #deliver block} while the subscriber has no demand, so a
 * slow application stops the session's reading and, through TCP or HTTP/2 flow control, the peer.
 *
 * <p>One subscriber. Messages that arrive before anyone subscribed are kept, up to {@link #EARLY_LIMIT};
 * beyond that (a handler that never reads) they are dropped rather than blocking, so close frames and pings
 * are still read; the first drop of a session is logged as a warning. After {@link #discard()} (the handler finished or closed the session) every message is
 * dropped.
 *
 * <p>Threads: {@link #deliver}, {@link #complete} and {@link #fail} are called by the session's thread, one at
 * a time; {@code request}, {@code cancel} and {@link #discard()} by any thread. Signals to the subscriber are
 * serialized by a work-in-progress counter ({@link #drain()}); the lock only guards the fields, never a
 * signal.
 */
final class InboundMessages implements Publisher<WebSocketMessage>, Subscription {

    /** Messages kept for a subscriber that has not subscribed yet. */
    static final int EARLY_LIMIT = 32;

    private static final Log logger = LogFactory.getLog(InboundMessages.class);

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition spaceFreed = lock.newCondition();
    private final AtomicInteger wip = new AtomicInteger();
    // guarded by lock
    private final ArrayDeque<WebSocketMessage> queue = new ArrayDeque<>();
    private @Nullable Subscriber<? super WebSocketMessage> subscriber;
    private long demand;
    private boolean discarding;
    private boolean done;
    private @Nullable Throwable failure;
    private boolean terminated;
    private boolean warnedOfDrops;

    @Override
    public void subscribe(Subscriber<? super WebSocketMessage> s) {
        lock.lock();
        boolean first = subscriber == null;
        if (first) {
            subscriber = s;
        }
        lock.unlock();
        if (!first) {
            Operators.error(s, new IllegalStateException("receive() allows only one subscriber"));
            return;
        }
        s.onSubscribe(this);
        drain();
    }

    /**
     * Hands {@code message} to the subscriber, waiting while it has no demand for it; drops it (releasing
     * its buffer) when the messages are being discarded, or when nobody subscribed and the early queue is full.
     *
     * @throws InterruptedException if the session's thread is interrupted (the server is stopping)
     */
    void deliver(WebSocketMessage message) throws InterruptedException {
        lock.lock();
        try {
            while (!discarding && subscriber != null && !queue.isEmpty()) {
                // One message waits for demand; the next one waits here, holding the peer back.
                spaceFreed.await();
            }
            if (discarding || (subscriber == null && queue.size() >= EARLY_LIMIT)) {
                message.release();
                if (!discarding && !warnedOfDrops) {
                    // Once per session: an application that never subscribes to receive() loses what it is sent.
                    warnedOfDrops = true;
                    logger.warn("Dropping WebSocket messages: receive() was not subscribed and " + EARLY_LIMIT
                            + " messages are waiting (logged once per session)");
                }
                return;
            }
            queue.add(message);
        } finally {
            lock.unlock();
        }
        drain();
    }

    /** The session ended: completes the subscriber once the queued messages are delivered. */
    void complete() {
        terminate(null);
    }

    /** The session failed: fails the subscriber once the queued messages are delivered. */
    void fail(Throwable error) {
        terminate(error);
    }

    private void terminate(@Nullable Throwable error) {
        lock.lock();
        try {
            if (done) {
                return;
            }
            done = true;
            failure = error;
        } finally {
            lock.unlock();
        }
        drain();
    }

    /** Drops queued and later messages and stops blocking the session's thread; the end is still signalled. */
    void discard() {
        lock.lock();
        try {
            discarding = true;
            releaseQueued();
            spaceFreed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void request(long n) {
        if (n <= 0) {
            fail(new IllegalArgumentException("§3.9: request must be positive, was " + n));
            return;
        }
        lock.lock();
        try {
            demand = Operators.addCap(demand, n);
        } finally {
            lock.unlock();
        }
        drain();
    }

    @Override
    public void cancel() {
        lock.lock();
        try {
            terminated = true; // no more signals (§3.6)
        } finally {
            lock.unlock();
        }
        discard();
    }

    /** Emits queued messages while there is demand, then the end; one thread at a time. */
    private void drain() {
        if (wip.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        do {
            emitAvailable();
            missed = wip.addAndGet(-missed);
        } while (missed != 0);
    }

    private void emitAvailable() {
        while (true) {
            Subscriber<? super WebSocketMessage> s;
            WebSocketMessage next = null;
            Throwable error = null;
            lock.lock();
            try {
                s = subscriber;
                if (s == null || terminated) {
                    return;
                }
                if (demand > 0 && !queue.isEmpty()) {
                    next = queue.poll();
                    if (demand != Long.MAX_VALUE) {
                        demand--;
                    }
                    spaceFreed.signalAll();
                } else if (done && queue.isEmpty()) {
                    terminated = true;
                    error = failure;
                } else {
                    return;
                }
            } finally {
                lock.unlock();
            }
            if (next != null) {
                s.onNext(next);
            } else if (error != null) {
                s.onError(error);
                return;
            } else {
                s.onComplete();
                return;
            }
        }
    }

    private void releaseQueued() {
        for (WebSocketMessage m; (m = queue.poll()) != null; ) {
            m.release();
        }
    }
}
