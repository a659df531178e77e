package dev.weft.httpserver.core;

import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static dev.weft.httpserver.testing.RawHttpClient.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When every carrier of virtual threads is held (here: threads pinned while they wait for a class to be
 * initialised, the shape of Spring Boot's executable-jar class-loading deadlock), no connection can be served.
 * The server then says so once at WARNING, judges no client by deadlines it could not serve, and still stops.
 */
@Timeout(60)
class SchedulerStallTest {

    private static final int CARRIERS = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
            Runtime.getRuntime().availableProcessors());

    private static final CountDownLatch ENTERING_A = new CountDownLatch(CARRIERS);
    private static final CountDownLatch RELEASE_A = new CountDownLatch(1);
    private static final CountDownLatch ENTERING_B = new CountDownLatch(CARRIERS);
    private static final CountDownLatch RELEASE_B = new CountDownLatch(1);

    private final Logger watchdogLogger = Logger.getLogger(SchedulerWatchdog.class.getName());
    private final BlockingQueue<LogRecord> warnings = new LinkedBlockingQueue<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnings.add(record);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private final List<RawHttpClient> pinners = new ArrayList<>();
    /** The latch that ends this test's stall (the other test's must stay closed until it runs). */
    private CountDownLatch release = new CountDownLatch(0);
    private TestServer server;

    @BeforeEach
    void captureWarnings() {
        watchdogLogger.addHandler(capture);
    }

    @AfterEach
    void stop() {
        release.countDown(); // this test's stall, if it is not over yet
        pinners.forEach(RawHttpClient::closeQuietly);
        if (server != null) {
            server.close();
        }
        watchdogLogger.removeHandler(capture);
    }

    @Test
    void aStalledSchedulerIsReportedAndARequestThatCameInTimeIsServedOnceItRecovers() throws Exception {
        release = RELEASE_A;
        server = TestServer.builder()
                .config(ServerConfig.builder().idleTimeout(Duration.ofMillis(500)).build())
                .handle("/pin", exchange -> {
                    ENTERING_A.countDown();
                    StallA.touch();
                    TestServer.respond(exchange, 200, "pinned");
                })
                .handle("/hello", exchange -> TestServer.respond(exchange, 200, "hello"))
                .start();
        try (RawHttpClient client = RawHttpClient.connect(server.port(), Duration.ofSeconds(30))) {
            assertEquals("hello", client.send(get("/hello")).readResponse().bodyText());
            // Its thread now waits for the next request, with a 500 ms idle deadline.
            pinEveryCarrier("/pin", ENTERING_A);
            client.send(get("/hello")); // in time: well within the idle timeout

            LogRecord warning = warnings.poll(20, TimeUnit.SECONDS);
            assertNotNull(warning, "the stall was reported at WARNING");
            String text = warning.getMessage();
            assertTrue(text.contains("no virtual thread has been scheduled"), text);
            assertTrue(text.contains("StallA"), "the report shows the stuck threads' stacks: " + text);
            assertTrue(text.contains("Thread.dump_to_file"), text);

            RELEASE_A.countDown();
            RawHttpClient.Response answer = client.readResponse();
            assertEquals(200, answer.status(), "a request that came in time is served once the carriers are free");
            assertEquals("hello", answer.bodyText());
        }
        for (RawHttpClient pinner : pinners) {
            assertEquals("pinned", pinner.readResponse().bodyText());
        }
        assertTrue(warnings.isEmpty(), "one warning per stall: " + warnings);
    }

    @Test
    void stopAndAGracefulShutdownCutShortCompleteWhileEveryCarrierIsHeld() throws Exception {
        release = RELEASE_B;
        server = TestServer.builder()
                .handle("/pin", exchange -> {
                    ENTERING_B.countDown();
                    StallB.touch();
                    TestServer.respond(exchange, 200, "pinned");
                })
                .start();
        pinEveryCarrier("/pin", ENTERING_B);

        CompletableFuture<Boolean> graceful = Weft.shutdownGracefully(server.server());
        assertFalse(graceful.isDone(), "exchanges are in flight");
        server.server().stop(0);

        assertFalse(graceful.get(20, TimeUnit.SECONDS), "reported as cut short");
        Await.until("the graceful-shutdown thread to end", () -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().equals("weft-graceful-shutdown")));
    }

    /** Sends one request to {@code path} per carrier thread and waits until each handler is about to block. */
    private void pinEveryCarrier(String path, CountDownLatch entering) throws IOException {
        for (int i = 0; i < CARRIERS; i++) {
            RawHttpClient pinner = RawHttpClient.connect(server.port(), Duration.ofSeconds(30));
            pinners.add(pinner);
            pinner.send(get(path));
        }
        Await.latch("a handler on every carrier to reach the class being initialised", entering);
    }

    /**
     * A class whose initialisation waits for the test: the thread initialising it, and every thread that needs it
     * meanwhile, is pinned to its carrier until {@link #RELEASE_A}. (The latches live outside it: touching them
     * must not start its initialisation.)
     */
    static final class StallA {
        static {
            await(RELEASE_A);
        }

        static void touch() {
        }
    }

    /** Like {@link StallA}, for the second test (a class is initialised once per JVM). */
    static final class StallB {
        static {
            await(RELEASE_B);
        }

        static void touch() {
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
