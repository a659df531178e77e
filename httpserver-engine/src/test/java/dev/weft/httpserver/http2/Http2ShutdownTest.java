package dev.weft.httpserver.http2;

import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** stop(delay) over HTTP/2: GOAWAY first, in-flight streams finish, stuck handlers are interrupted at the end. */
@Timeout(60)
class Http2ShutdownTest {

    @Test
    void stopSendsGoAwayThenLetsTheInFlightStreamFinish() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        TestServer server = TestServer.builder().handle("/", ex -> {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            TestServer.sendFixed(ex, 200, "finished".getBytes(StandardCharsets.US_ASCII));
        }).start();
        try (FrameClient c = FrameClient.connect(server.port())) {
            c.get(1, "/");
            Await.latch("the handler to start", started);
            // a delay no test waits for: stop must return when the stream ends, long before it
            CompletableFuture<Void> stop = CompletableFuture.runAsync(() -> server.server().stop(60));
            Frame.GoAwayFrame goAway = c.await(Frame.GoAwayFrame.class);
            assertNotNull(goAway);
            assertEquals(ErrorCode.NO_ERROR, goAway.error());
            assertEquals(1, goAway.lastStreamId());
            assertFalse(stop.isDone(), "stop returned while a stream was in flight");
            release.countDown();
            FrameClient.Response r = c.response(1);
            assertEquals(200, r.status());
            assertEquals("finished", r.body());
            assertTrue(c.closed());
            stop.get(20, TimeUnit.SECONDS); // fails if stop waits for its delay
        } finally {
            release.countDown();
            server.close();
        }
    }

    @Test
    void aHandlerStillRunningWhenTheDelayEndsIsInterrupted() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch ended = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        TestServer server = TestServer.builder().handle("/", ex -> {
            started.countDown();
            try {
                never.await(); // a handler stuck until interrupted
            } catch (InterruptedException e) {
                interrupted.set(true);
            } finally {
                ended.countDown();
            }
        }).start();
        try (FrameClient c = FrameClient.connect(server.port())) {
            c.get(1, "/");
            Await.latch("the handler to start", started);
            server.server().stop(1); // returns once the delay is over, the handler still stuck
            Await.latch("the stuck handler to end", ended);
            assertTrue(interrupted.get(), "the handler ended without being interrupted");
        } finally {
            server.close();
        }
    }
}
