package dev.weft.spring.boot.reactive;

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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The request body publisher reads exactly what is requested, on the loop's thread. */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RequestBodyPublisherTest {

    private static final int CHUNK = RequestBodyPublisher.CHUNK_SIZE;

    private final ExchangeLoop loop = new ExchangeLoop();
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
        Thread.sleep(100); // nothing more may be read without demand
        assertThat(recorder.sizes).containsExactly(CHUNK, CHUNK);
        assertThat(in.reads.get()).isEqualTo(2);
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
        Thread.sleep(100);
        assertThat(in.reads.get()).isEqualTo(1);
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

        void awaitChunks(int n) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (sizes.size() < n && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(sizes).hasSizeGreaterThanOrEqualTo(n);
        }
    }
}
