package dev.weft.httpserver.accesslog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.httpserver.testing.Await;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/** The writer thread takes lines off the caller: a stuck destination costs lines, never the caller's time. */
class LineWriterTest {

    /** Records what it is given; the first write waits until released. */
    private static final class StuckDestination implements Destination {
        final CountDownLatch writing = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<String> written = new CopyOnWriteArrayList<>();
        volatile boolean closed;

        @Override
        public void write(List<Lines> batch) throws java.io.IOException {
            writing.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new java.io.InterruptedIOException();
            }
            batch.forEach(lines -> written.addAll(lines.text()));
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void aFullQueueDropsAndCountsLinesWithoutBlockingAndCloseWritesTheQueuedOnes() throws Exception {
        StuckDestination stuck = new StuckDestination();
        AtomicInteger drops = new AtomicInteger();
        LineWriter writer = new LineWriter(stuck, 4, Duration.ofMillis(50), drops::addAndGet);
        writer.start("test-access-log");

        writer.offer(TestLines.of("first"));
        Await.latch("the writer stuck in its first write", stuck.writing);
        for (int i = 0; i < 10; i++) {
            writer.offer(TestLines.of("line " + i)); // returns at once: 4 are queued, 6 dropped
        }
        writer.offer(TestLines.of("a", "b")); // a batch that does not fit is dropped whole

        assertEquals(8, drops.get());
        assertEquals(8, writer.dropped());
        stuck.release.countDown();
        writer.close(Duration.ofSeconds(10));

        assertTrue(stuck.closed);
        assertEquals(List.of("first", "line 0", "line 1", "line 2", "line 3"), stuck.written);
    }

    @Test
    void linesAreFlushedWithinTheIntervalWhileTheServerRuns() throws Exception {
        AtomicInteger flushes = new AtomicInteger();
        List<String> written = new CopyOnWriteArrayList<>();
        Destination d = new Destination() {
            @Override
            public void write(List<Lines> batch) {
                batch.forEach(lines -> written.addAll(lines.text()));
            }

            @Override
            public void flush() {
                flushes.incrementAndGet();
            }
        };
        LineWriter writer = new LineWriter(d, 16, Duration.ofMillis(20), lines -> { });
        writer.start("test-access-log");
        try {
            writer.offer(TestLines.of("a"));
            Await.until("the line flushed", () -> flushes.get() > 0);
            assertEquals(List.of("a"), written);
        } finally {
            writer.close(Duration.ofSeconds(10));
        }
    }
}
