package dev.weft.httpserver.http2;

import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** stop(delay) over HTTP/2: GOAWAY first, in-flight streams finish, stuck handlers are interrupted at the end. */
@Timeout(30)
class Http2ShutdownTest {

    @Test
    void stopSendsGoAwayThenLetsTheInFlightStreamFinish() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        TestServer server = TestServer.builder().handle("/", ex -> {
            started.countDown();
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            TestServer.sendFixed(ex, 200, "finished".getBytes(StandardCharsets.US_ASCII));
        }).start();
        try (FrameClient c = FrameClient.connect(server.port())) {
            c.get(1, "/");
            assertTrue(started.await(5, TimeUnit.SECONDS));
            long t0 = System.nanoTime();
            CompletableFuture<Void> stop = CompletableFuture.runAsync(() -> server.server().stop(5));
            Frame.GoAwayFrame goAway = c.await(Frame.GoAwayFrame.class);
            assertNotNull(goAway);
            assertEquals(ErrorCode.NO_ERROR, goAway.error());
            assertEquals(1, goAway.lastStreamId());
            FrameClient.Response r = c.response(1);
            assertEquals(200, r.status());
            assertEquals("finished", r.body());
            assertTrue(c.closedWithin(Duration.ofSeconds(3)));
            stop.get(10, TimeUnit.SECONDS);
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(4), "stop waited for the whole delay");
        }
    }

    @Test
    void aHandlerStillRunningWhenTheDelayEndsIsInterrupted() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch ended = new CountDownLatch(1);
        TestServer server = TestServer.builder().handle("/", ex -> {
            started.countDown();
            try {
                Thread.sleep(20_000);
            } catch (InterruptedException e) {
                interrupted.set(true);
            } finally {
                ended.countDown();
            }
        }).start();
        try (FrameClient c = FrameClient.connect(server.port())) {
            c.get(1, "/");
            assertTrue(started.await(5, TimeUnit.SECONDS));
            long t0 = System.nanoTime();
            server.server().stop(1);
            long took = System.nanoTime() - t0;
            assertTrue(took < TimeUnit.SECONDS.toNanos(4), "stop took " + took / 1_000_000 + " ms");
            assertTrue(ended.await(5, TimeUnit.SECONDS), "handler still sleeping");
            assertTrue(interrupted.get());
        }
    }
}
