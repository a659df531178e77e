package dev.weft.spring.boot.reactive;

import dev.weft.httpserver.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-exchange task loop run by the connection thread. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ExchangeLoopTest {

    private final ExchangeLoop loop = new ExchangeLoop(since -> { });

    @Test
    void tasksQueuedBeforeTerminationRunInOrderOnTheLoopThreadBeforeItReturns() throws Exception {
        List<String> ran = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 5; i++) {
            int n = i;
            loop.execute(() -> ran.add(n + "@" + Thread.currentThread().getName()), () -> ran.add("discarded"));
        }
        loop.terminate(null);
        Throwable result = runOnThread("loop-thread").get(5, TimeUnit.SECONDS);

        assertThat(result).isNull();
        assertThat(ran).containsExactly("0@loop-thread", "1@loop-thread", "2@loop-thread", "3@loop-thread",
                "4@loop-thread");
    }

    @Test
    void aWaitForTheNextTaskIsReportedWithWhenItStartedAndATaskAlreadyQueuedIsNot() throws Exception {
        List<Long> waits = new CopyOnWriteArrayList<>();
        ExchangeLoop waitingLoop = new ExchangeLoop(waits::add);
        CountDownLatch ranFirst = new CountDownLatch(1);
        waitingLoop.execute(ranFirst::countDown, () -> { });
        long before = System.nanoTime();
        CompletableFuture<Throwable> result = new CompletableFuture<>();
        Thread loopThread = Thread.ofVirtual().start(() -> result.complete(waitingLoop.run()));
        Await.latch("the queued task ran", ranFirst);
        Await.until("the loop waits for its next task", () -> loopThread.getState() == Thread.State.WAITING);
        assertThat(waits).as("the first task was queued already: no wait").isEmpty();

        waitingLoop.terminate(null);

        assertThat(result.get(5, TimeUnit.SECONDS)).isNull();
        assertThat(waits).hasSize(1);
        assertThat(waits.get(0)).isGreaterThanOrEqualTo(before);
    }

    @Test
    void firstTerminationWinsAndItsFailureIsReturned() throws Exception {
        IOException failure = new IOException("first");
        loop.terminate(failure);
        loop.terminate(null);

        assertThat(runOnThread("loop").get(5, TimeUnit.SECONDS)).isSameAs(failure);
    }

    @Test
    void tasksAfterTheLoopEndedAreDiscardedOnTheCallingThread() throws Exception {
        loop.terminate(null);
        runOnThread("loop").get(5, TimeUnit.SECONDS);
        AtomicInteger ran = new AtomicInteger();
        AtomicInteger discarded = new AtomicInteger();

        loop.execute(ran::incrementAndGet, discarded::incrementAndGet);

        assertThat(loop.isClosed()).isTrue();
        assertThat(ran).hasValue(0);
        assertThat(discarded).hasValue(1);
    }

    @Test
    void submittedActionCompletesItsMonoOrFailsIt() throws Exception {
        CompletableFuture<Throwable> done = runOnThread("loop");
        CompletableFuture<String> ok = new CompletableFuture<>();
        CompletableFuture<Throwable> failed = new CompletableFuture<>();

        loop.submit(() -> { }, () -> { }).subscribe(null, ok::completeExceptionally,
                () -> ok.complete(Thread.currentThread().getName()));
        loop.submit(() -> {
            throw new IOException("write failed");
        }, () -> { }).subscribe(null, failed::complete);

        assertThat(ok.get(5, TimeUnit.SECONDS)).isEqualTo("loop");
        assertThat(failed.get(5, TimeUnit.SECONDS)).hasMessage("write failed");
        loop.terminate(null);
        assertThat(done.get(5, TimeUnit.SECONDS)).isNull();
    }

    @Test
    void submitAfterTheEndFailsAndDiscards() throws Exception {
        loop.terminate(null);
        runOnThread("loop").get(5, TimeUnit.SECONDS);
        AtomicInteger discarded = new AtomicInteger();

        CompletableFuture<Throwable> error = new CompletableFuture<>();
        loop.submit(() -> { }, discarded::incrementAndGet).subscribe(null, error::complete);

        assertThat(error.get(5, TimeUnit.SECONDS)).hasMessageContaining("exchange is over");
        assertThat(discarded).hasValue(1);
    }

    @Test
    void taskThatLeaksAnExceptionFailsTheExchange() throws Exception {
        CompletableFuture<Throwable> done = runOnThread("loop");
        loop.execute(() -> {
            throw new IllegalStateException("bug");
        }, () -> { });

        assertThat(done.get(5, TimeUnit.SECONDS)).hasMessage("bug");
    }

    @Test
    void interruptingTheLoopThreadEndsTheLoop() throws Exception {
        CompletableFuture<Throwable> done = new CompletableFuture<>();
        CountDownLatch running = new CountDownLatch(1);
        loop.execute(running::countDown, () -> { });
        Thread thread = Thread.ofVirtual().start(() -> done.complete(loop.run()));
        // the loop ran a task and now waits for the next one
        Await.latch("the loop to run a task", running);
        Await.until("the loop to wait for a task", () -> thread.getState() == Thread.State.WAITING);
        thread.interrupt();

        assertThat(done.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
    }

    private CompletableFuture<Throwable> runOnThread(String name) {
        CompletableFuture<Throwable> result = new CompletableFuture<>();
        Thread.ofVirtual().name(name).start(() -> result.complete(loop.run()));
        return result;
    }
}
