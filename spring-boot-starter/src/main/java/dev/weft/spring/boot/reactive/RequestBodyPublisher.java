package dev.weft.spring.boot.reactive;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import reactor.core.publisher.Operators;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The request body as a single-subscriber {@code Publisher<DataBuffer>} with back-pressure: each chunk
 * requested is one blocking read of at most {@link #CHUNK_SIZE} bytes from the exchange's stream, done by
 * the connection thread through the {@link ExchangeLoop}. Nothing is read ahead of demand, so a slow
 * consumer slows the client down through TCP flow control instead of filling the heap.
 *
 * <p>Threads: {@code request} and {@code cancel} come from any thread; reads and every signal to the
 * subscriber after {@code onSubscribe} happen on the connection thread.
 */
final class RequestBodyPublisher implements Publisher<DataBuffer> {

    /** Largest chunk emitted, in bytes. */
    static final int CHUNK_SIZE = 8 * 1024;

    private final InputStream in;
    private final ExchangeLoop loop;
    private final DataBufferFactory bufferFactory;
    private final AtomicBoolean subscribed = new AtomicBoolean();
    /** Why reading the body failed, when the engine refused or lost it (the client's doing), else null. */
    private volatile @Nullable IOException readFailure;

    RequestBodyPublisher(InputStream in, ExchangeLoop loop, DataBufferFactory bufferFactory) {
        this.in = in;
        this.loop = loop;
        this.bufferFactory = bufferFactory;
    }

    /**
     * Why reading the body from the client failed (reset, closed, malformed or too slow; the engine answers
     * with the right status itself), or {@code null} if it did not.
     */
    @Nullable IOException readFailure() {
        return readFailure;
    }

    @Override
    public void subscribe(Subscriber<? super DataBuffer> subscriber) {
        Objects.requireNonNull(subscriber, "subscriber");
        if (!subscribed.compareAndSet(false, true)) {
            Operators.error(subscriber, new IllegalStateException("The request body can only be consumed once"));
            return;
        }
        subscriber.onSubscribe(new BodySubscription(subscriber));
    }

    private final class BodySubscription implements Subscription {

        private final Subscriber<? super DataBuffer> actual;
        private final AtomicLong requested = new AtomicLong();
        /** Drain passes asked for and not yet done; the one that moves it from 0 queues the drain task. */
        private final AtomicInteger wip = new AtomicInteger();
        private volatile boolean cancelled;
        private volatile boolean invalidRequest;
        private volatile boolean done;

        BodySubscription(Subscriber<? super DataBuffer> actual) {
            this.actual = actual;
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                invalidRequest = true;
            } else {
                addCap(n);
            }
            if (wip.getAndIncrement() == 0) {
                loop.execute(this::drain, this::exchangeOver);
            }
        }

        @Override
        public void cancel() {
            cancelled = true;
        }

        private void addCap(long n) {
            long current;
            long next;
            do {
                current = requested.get();
                if (current == Long.MAX_VALUE) {
                    return;
                }
                next = current + n < 0 ? Long.MAX_VALUE : current + n;
            } while (!requested.compareAndSet(current, next));
        }

        /** Connection thread: reads and emits as many chunks as were requested. */
        private void drain() {
            int missed = 1;
            do {
                long demand = requested.get();
                long emitted = 0;
                while (true) {
                    if (cancelled || done) {
                        return;
                    }
                    if (invalidRequest) {
                        fail(new IllegalArgumentException("Reactive Streams rule 3.9: request must be positive"));
                        return;
                    }
                    if (emitted == demand) {
                        break;
                    }
                    DataBuffer chunk;
                    try {
                        chunk = readChunk();
                    } catch (IOException ex) {
                        readFailure = ex;
                        fail(ex);
                        return;
                    }
                    if (chunk == null) {
                        done = true;
                        actual.onComplete();
                        return;
                    }
                    if (cancelled) {
                        DataBufferUtils.release(chunk);
                        return;
                    }
                    actual.onNext(chunk);
                    emitted++;
                }
                if (demand != Long.MAX_VALUE) {
                    requested.addAndGet(-emitted);
                }
                missed = wip.addAndGet(-missed);
            } while (missed != 0);
        }

        /** One blocking read, topped up with whatever else is already buffered; {@code null} at the end. */
        private @Nullable DataBuffer readChunk() throws IOException {
            byte[] bytes = new byte[CHUNK_SIZE];
            int n;
            do {
                n = in.read(bytes, 0, CHUNK_SIZE);
            } while (n == 0);
            if (n < 0) {
                return null;
            }
            while (n < CHUNK_SIZE && in.available() > 0) {
                int more = in.read(bytes, n, CHUNK_SIZE - n);
                if (more < 0) {
                    break;
                }
                n += more;
            }
            return bufferFactory.wrap(n == CHUNK_SIZE ? bytes : Arrays.copyOf(bytes, n));
        }

        private void fail(Throwable ex) {
            done = true;
            actual.onError(ex);
        }

        /** The loop has ended: nothing will be read any more. */
        private void exchangeOver() {
            if (!cancelled && !done) {
                fail(new java.io.EOFException("The exchange is over; the request body can no longer be read"));
            }
        }
    }
}
