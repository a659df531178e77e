package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.ConnectProbe;
import dev.weft.httpserver.testing.RawHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static dev.weft.httpserver.testing.RawHttpClient.get;
import static dev.weft.httpserver.testing.TestServer.respond;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** stop(delay): refuse new work at once, let in-flight exchanges finish, force the rest after the delay. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GracefulStopTest {

    private final CountDownLatch release = new CountDownLatch(1);
    private HttpServer server;
    private boolean stopped;

    @AfterEach
    void cleanUp() {
        release.countDown();
        if (server != null && !stopped) {
            server.stop(0);
        }
    }

    private int start(Set<Thread> weftThreadsBefore) throws IOException {
        weftThreadsBefore.addAll(weftThreads());
        server = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        return server.getAddress().getPort();
    }

    private void stop(int delay) {
        stopped = true;
        server.stop(delay);
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }

    /** Live platform threads whose name mentions weft (virtual threads are not listed by the JVM). */
    private static Set<Thread> weftThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().toLowerCase(Locale.ROOT).contains("weft"))
                .collect(Collectors.toSet());
    }

    private static void assertNoNewWeftThreads(Set<Thread> before) {
        Await.value("the weft threads started by the test to end", () -> {
            Set<String> left = new TreeSet<>();
            weftThreads().stream().filter(t -> !before.contains(t)).forEach(t -> left.add(t.getName()));
            return left;
        }, Set::isEmpty);
    }

    @Test
    void stopLetsTheInFlightExchangeFinishAndRefusesEverythingElse() throws Exception {
        Set<Thread> before = new HashSet<>();
        int port = start(before);
        CountDownLatch slowEntered = new CountDownLatch(1);
        CountDownLatch slowFinished = new CountDownLatch(1);
        server.createContext("/slow", ex -> {
            slowEntered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            respond(ex, 200, "slow done");
            slowFinished.countDown();
        });
        server.createContext("/fast", ex -> respond(ex, 200, "fast"));
        server.start();

        try (RawHttpClient idle = RawHttpClient.connect(port); RawHttpClient busy = RawHttpClient.connect(port)) {
            assertEquals("fast", idle.send(get("/fast")).readResponse().bodyText());
            busy.send(get("/slow"));
            Await.latch("the slow exchange to start", slowEntered);

            // A delay no test waits for: stop must return when the exchange ends, long before it.
            CompletableFuture<Void> stopReturned = CompletableFuture.runAsync(() -> stop(60));

            // While the in-flight exchange is held: the idle connection is closed, new ones are refused, and stop
            // has not returned.
            assertTrue(idle.serverClosed(), "idle keep-alive connection not closed by stop");
            Await.until("the listener to refuse new connections", () -> ConnectProbe.refused(port));
            assertFalse(stopReturned.isDone(), "stop returned while an exchange was in flight");

            release.countDown();
            RawHttpClient.Response r = busy.readResponse();
            assertEquals(200, r.status());
            assertEquals("slow done", r.bodyText());
            assertTrue(r.hasConnectionToken("close"), () -> "in-flight response lacks Connection: close: " + r);
            assertTrue(busy.serverClosed(), "connection of the finished exchange left open");

            stopReturned.get(20, TimeUnit.SECONDS); // fails if stop waits for its delay
            assertEquals(0, slowFinished.getCount(), "stop returned before the in-flight exchange finished");
        }
        assertNoNewWeftThreads(before);
    }

    @Test
    void stopForciblyClosesExchangesStillRunningAfterTheDelay() throws Exception {
        Set<Thread> before = new HashSet<>();
        int port = start(before);
        CountDownLatch entered = new CountDownLatch(1);
        server.createContext("/stuck", ex -> {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            respond(ex, 200, "too late");
        });
        server.start();

        try (RawHttpClient c = RawHttpClient.connect(port)) {
            c.send(get("/stuck"));
            assertTrue(entered.await(5, TimeUnit.SECONDS));

            // The handler never ends on its own: stop returns only because it forces the exchange after the delay.
            long t0 = System.nanoTime();
            stop(1);
            long took = millisSince(t0);
            assertTrue(took >= 900, "stop(1) returned after " + took + " ms");

            c.socket().setSoTimeout(10_000);
            byte[] rest = c.readUntilClose();
            String seen = new String(rest, StandardCharsets.ISO_8859_1);
            assertTrue(!seen.startsWith("HTTP/1.1 200") && !seen.contains("too late"),
                    "client received a response from a forcibly closed exchange: " + seen);
        }
        assertNoNewWeftThreads(before);
    }

    @Test
    void stopOfAnIdleServerReturnsPromptlyAndLeavesNoThreads() throws Exception {
        Set<Thread> before = new HashSet<>();
        int port = start(before);
        server.createContext("/", ex -> respond(ex, 200, "ok"));
        server.start();
        try (RawHttpClient c = RawHttpClient.connect(port)) {
            assertEquals("ok", c.send(get("/")).readResponse().bodyText());
            // A delay no test waits for: with nothing in flight, stop returns at once.
            CompletableFuture.runAsync(() -> stop(60)).get(20, TimeUnit.SECONDS);
            assertTrue(c.serverClosed(), "idle connection left open after stop");
        }
        assertNoNewWeftThreads(before);
    }
}
