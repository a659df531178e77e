package dev.weft.spring.boot.reactive;

import dev.weft.httpserver.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.reactivestreams.Subscription;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.publisher.BaseSubscriber;

import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The request body publisher reads exactly what is requested, on the loop's thread. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RequestBodyPublisherTest {

    private static final int CHUNK = RequestBodyPublisher.CHUNK_SIZE;

    private final ExchangeLoop loop = new ExchangeLoop(since -> { });
    private final CompletableFuture<Throwable> loopResult = new CompletableFuture<>();
    private final Thread loopThread = Thread.ofVirtual().name("test-connection").start(() -> {
        try {
            loopResult.complete(loop.run());
        } catch (Throwable ex) {
            loopResult.complete(ex);
        }
    });

    @AfterEach
    void stopLoop() throws Exception {
        loop.terminate(null);
        assertThat(loopResult.get(5, TimeUnit.SECONDS)).isNull();
    }

    @Test
    void eachRequestedChunkIsOneReadOnTheLoopThread() throws Exception {
        CountingStream in = new CountingStream(10 * CHUNK + 5);
        Recorder recorder = new Recorder(2);
        new RequestBodyPublisher(in, loop, DefaultDataBufferFactory.sharedInstance).subscribe(recorder);

        recorder.awaitChunks(2);
        // Nothing more is read without demand: every read is a task of the loop, queued before the sentinel.
        awaitLoopSentinel();
        assertThat(recorder.sizes).containsExactly(CHUNK, CHUNK);
        assertThat(in.reads.get()).isEqualTo(2);
        // One more chunk asked for, one more read: the count does not run ahead of the demand.
        recorder.request(1);
        recorder.awaitChunks(3);
        awaitLoopSentinel();
        assertThat(recorder.sizes).containsExactly(CHUNK, CHUNK, CHUNK);
        assertThat(in.reads.get()).isEqualTo(3);
        assertThat(recorder.threads).containsOnly(loopThread.getName());

        recorder.request(Long.MAX_VALUE);
        assertThat(recorder.completed.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(recorder.sizes).hasSize(11).endsWith(5);
        assertThat(recorder.sizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(10 * CHUNK + 5);
    }

    @Test
    void emptyBodyCompletesOnFirstRequest() throws Exception {
        Recorder recorder = new Recorder(1);
        new RequestBodyPublisher(new CountingStream(0), loop, DefaultDataBufferFactory.sharedInstance)
                .subscribe(recorder);

        assertThat(recorder.completed.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(recorder.sizes).isEmpty();
    }

    @Test
    void secondSubscriberIsRejected() throws Exception {
        RequestBodyPublisher publisher = new RequestBodyPublisher(new CountingStream(10), loop,
                DefaultDataBufferFactory.sharedInstance);
        publisher.subscribe(new Recorder(0));
        Recorder second = new Recorder(1);
        publisher.subscribe(second);

        assertThat(second.error.get(5, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void cancelStopsReading() throws Exception {
        CountingStream in = new CountingStream(100 * CHUNK);
        Recorder recorder = new Recorder(1);
        new RequestBodyPublisher(in, loop, DefaultDataBufferFactory.sharedInstance).subscribe(recorder);
        recorder.awaitChunks(1);

        recorder.subscription.cancel();
        recorder.subscription.request(10); // ignored after cancel
        awaitLoopSentinel();
        assertThat(in.reads.get()).isEqualTo(1);
    }

    /**
     * Runs a task on the loop and waits for it: the loop runs its tasks in order, one at a time, so every read
     * queued before it has been done.
     */
    private void awaitLoopSentinel() {
        CountDownLatch ran = new CountDownLatch(1);
        loop.execute(ran::countDown, () -> { });
        Await.latch("a task queued on the loop after the reads", ran);
    }

    @Test
    void requestAfterTheExchangeEndedFailsTheSubscriber() throws Exception {
        Recorder recorder = new Recorder(0);
        new RequestBodyPublisher(new CountingStream(10), loop, DefaultDataBufferFactory.sharedInstance)
                .subscribe(recorder);
        loop.terminate(null);
        loopResult.get(5, TimeUnit.SECONDS);

        recorder.request(1);
        assertThat(recorder.error.get(5, TimeUnit.SECONDS)).hasMessageContaining("exchange is over");
    }

    /** Returns at most one chunk per read, counting reads (no {@code available()} top-up). */
    private static final class CountingStream extends ByteArrayInputStream {
        final AtomicInteger reads = new AtomicInteger();

        CountingStream(int length) {
            super(new byte[length]);
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) {
            reads.incrementAndGet();
            return super.read(b, off, Math.min(len, CHUNK));
        }

        @Override
        public synchronized int available() {
            return 0;
        }
    }

    private static final class Recorder extends BaseSubscriber<DataBuffer> {
        final List<Integer> sizes = new CopyOnWriteArrayList<>();
        final List<String> threads = new CopyOnWriteArrayList<>();
        final CompletableFuture<Boolean> completed = new CompletableFuture<>();
        final CompletableFuture<Throwable> error = new CompletableFuture<>();
        private final long initial;
        volatile Subscription subscription;

        Recorder(long initial) {
            this.initial = initial;
        }

        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            this.subscription = subscription;
            if (initial > 0) {
                request(initial);
            }
        }

        @Override
        protected void hookOnNext(DataBuffer buffer) {
            sizes.add(buffer.readableByteCount());
            threads.add(Thread.currentThread().getName());
        }

        @Override
        protected void hookOnComplete() {
            completed.complete(true);
        }

        @Override
        protected void hookOnError(Throwable throwable) {
            error.complete(throwable);
        }

        void awaitChunks(int n) {
            Await.until(n + " chunks", () -> sizes.size() >= n);
        }
    }
}
