package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpContext;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.config.ThreadsConfig;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static dev.weft.httpserver.testing.RawHttpClient.get;
import static dev.weft.httpserver.testing.TestServer.respond;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With {@code threads.virtual} off, handlers run on a bounded pool of platform threads, scheduled by the
 * operating system: a handler that computes without end cannot hold the others back, the pool grows before
 * exchanges queue and queues them in arrival order at its maximum, and a stop interrupts its handlers and ends
 * its threads.
 */
@Timeout(60)
class HandlerThreadsTest {

    private static final ThreadsConfig PLATFORM = ThreadsConfig.builder().virtual(false).build();

    private final List<Runnable> cleanups = new ArrayList<>();
    private TestServer server;

    @AfterEach
    void stop() {
        cleanups.forEach(Runnable::run);
        if (server != null) {
            server.close();
        }
    }

    private static ServerConfig config(ThreadsConfig threads) {
        return ServerConfig.builder().threads(threads).build();
    }

    @Test
    void handlersRunOnNamedDaemonPlatformThreads() throws Exception {
        AtomicReference<Thread> ran = new AtomicReference<>();
        server = TestServer.builder().config(config(PLATFORM)).handle("/", exchange -> {
            ran.set(Thread.currentThread());
            respond(exchange, 200, "ok");
        }).start();

        try (RawHttpClient client = server.connect()) {
            assertEquals(200, client.send(get("/")).readResponse().status());
        }
        Thread t = ran.get();
        assertFalse(t.isVirtual());
        assertTrue(t.isDaemon());
        assertTrue(t.getName().startsWith("weft-handler-" + server.port() + "-"), t.getName());
    }

    @Test
    void getExecutorAnswersWhereHandlersRun() throws Exception {
        server = TestServer.builder().config(config(PLATFORM)).handle("/", exchange -> respond(exchange, 200, "ok"))
                .start();
        Executor pool = server.server().getExecutor();
        BlockingQueue<Thread> ran = new LinkedBlockingQueue<>();
        pool.execute(() -> ran.add(Thread.currentThread()));
        Thread t = ran.poll(20, TimeUnit.SECONDS);
        assertNotNull(t);
        assertTrue(t.getName().startsWith("weft-handler-"), t.getName());
        assertSame(pool, Weft.applicationExecutor(server.server()));

        TestServer inline = TestServer.builder().handle("/", exchange -> respond(exchange, 200, "ok")).start();
        cleanups.add(inline::close);
        Executor direct = inline.server().getExecutor();
        assertNotNull(direct, "the JDK's server answers the executor it runs handlers on, never null");
        Thread caller = Thread.currentThread();
        AtomicReference<Thread> where = new AtomicReference<>();
        direct.execute(() -> where.set(Thread.currentThread()));
        assertSame(caller, where.get(), "handlers run where they are given: on the connection's thread");
    }

    @Test
    void aHandlerThatComputesWithoutEndDoesNotHoldTheOthersBack() throws Exception {
        AtomicBoolean spin = new AtomicBoolean(true);
        cleanups.add(() -> spin.set(false));
        int carriers = Runtime.getRuntime().availableProcessors();
        CountDownLatch spinning = new CountDownLatch(carriers);
        server = TestServer.builder().config(config(PLATFORM))
                .handle("/spin", exchange -> {
                    spinning.countDown();
                    long x = 0;
                    while (spin.get()) {
                        x += x * 31 + 1; // never parks, never yields: only preemption takes the CPU away
                    }
                    respond(exchange, 200, Long.toString(x));
                })
                .handle("/quick", exchange -> respond(exchange, 200, "quick"))
                .start();
        List<RawHttpClient> spinners = new ArrayList<>();
        for (int i = 0; i < carriers; i++) {
            RawHttpClient c = server.connect();
            spinners.add(c);
            c.send(get("/spin"));
        }
        cleanups.add(() -> spinners.forEach(RawHttpClient::closeQuietly));
        Await.latch("a handler spinning for every carrier thread", spinning);

        try (RawHttpClient client = RawHttpClient.connect(server.port(), Duration.ofSeconds(30))) {
            assertEquals("quick", client.send(get("/quick")).readResponse().bodyText());
        }
    }

    @Test
    void handlersThatWaitAreLetInBeyondTheLimitForComputingOnes() throws Exception {
        int many = 30;
        CountDownLatch inside = new CountDownLatch(many);
        CountDownLatch release = new CountDownLatch(1);
        cleanups.add(release::countDown);
        server = TestServer.builder().config(config(PLATFORM)).handle("/", exchange -> {
            inside.countDown();
            try {
                release.await(); // waits, as for a database: no CPU
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            respond(exchange, 200, "ok");
        }).start();
        List<RawHttpClient> clients = new ArrayList<>();
        cleanups.add(() -> clients.forEach(RawHttpClient::closeQuietly));
        for (int i = 0; i < many; i++) {
            RawHttpClient c = server.connect();
            clients.add(c);
            c.send(get("/"));
        }

        // Far more than the limit starts with (a few per core): let in because they wait.
        Await.latch(many + " handlers waiting at once", inside);
        release.countDown();
        for (RawHttpClient c : clients) {
            assertEquals(200, c.readResponse().status());
        }
    }

    @Test
    void atItsMaximumThePoolQueuesExchangesInArrivalOrder() throws Exception {
        CountDownLatch release1 = new CountDownLatch(1);
        CountDownLatch release2 = new CountDownLatch(1);
        cleanups.add(release1::countDown);
        cleanups.add(release2::countDown);
        BlockingQueue<String> started = new LinkedBlockingQueue<>();
        server = TestServer.builder().config(config(ThreadsConfig.builder().virtual(false).max(2).minSpare(0).build()))
                .handle("/", exchange -> {
                    String path = exchange.getRequestURI().getPath();
                    started.add(path);
                    CountDownLatch hold = path.equals("/hold1") ? release1 : path.equals("/hold2") ? release2 : null;
                    if (hold != null) {
                        try {
                            hold.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    respond(exchange, 200, path);
                }).start();
        RawHttpClient hold1 = server.connect();
        RawHttpClient hold2 = server.connect();
        cleanups.add(() -> { hold1.closeQuietly(); hold2.closeQuietly(); });
        hold1.send(get("/hold1"));
        assertEquals("/hold1", started.poll(20, TimeUnit.SECONDS));
        hold2.send(get("/hold2"));
        assertEquals("/hold2", started.poll(20, TimeUnit.SECONDS), "a second thread started while the first is busy");

        try (RawHttpClient first = server.connect(); RawHttpClient second = server.connect()) {
            first.send(get("/first"));
            Await.until("the first waiting exchange to be queued", () -> poolOf(server).inFlight() == 3);
            second.send(get("/second"));
            Await.until("the second waiting exchange to be queued", () -> poolOf(server).inFlight() == 4);
            assertEquals(2, poolOf(server).size(), "no thread beyond the maximum");
            assertTrue(started.isEmpty(), "nothing started beyond the maximum: " + started);

            // One thread comes free (the other stays held): it takes the waiting exchanges in arrival order.
            release1.countDown();
            assertEquals("/first", started.poll(20, TimeUnit.SECONDS));
            assertEquals("/second", started.poll(20, TimeUnit.SECONDS));
            assertEquals("/first", first.readResponse().bodyText());
            assertEquals("/second", second.readResponse().bodyText());
            release2.countDown();
        }
    }

    @Test
    void stopInterruptsHandlersOnThePoolAndEndsItsThreads() throws Exception {
        CountDownLatch inHandler = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch handlerEnded = new CountDownLatch(1);
        server = TestServer.builder().config(config(PLATFORM)).handle("/", exchange -> {
            inHandler.countDown();
            try {
                new CountDownLatch(1).await(); // until interrupted
            } catch (InterruptedException e) {
                interrupted.set(true);
            } finally {
                handlerEnded.countDown();
            }
        }).start();
        int port = server.port();
        try (RawHttpClient client = server.connect()) {
            client.send(get("/"));
            Await.latch("the handler to run", inHandler);
            server.server().stop(0);
            Await.latch("the handler to end", handlerEnded);
        }
        assertTrue(interrupted.get(), "the handler was interrupted");
        Await.until("every handler thread to end", () -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().startsWith("weft-handler-" + port + "-")));
    }

    @Test
    void aContextRunInlineIsServedOnTheConnectionThreadAndStartsItsWorkOnThePool() throws Exception {
        AtomicReference<Thread> handlerThread = new AtomicReference<>();
        BlockingQueue<Thread> workThread = new LinkedBlockingQueue<>();
        var http = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, config(PLATFORM));
        cleanups.add(() -> http.stop(0));
        HttpContext context = http.createContext("/", exchange -> {
            handlerThread.set(Thread.currentThread());
            Weft.applicationExecutor(exchange.getHttpContext().getServer())
                    .execute(() -> workThread.add(Thread.currentThread()));
            respond(exchange, 200, "ok");
        });
        Weft.runInline(context);
        http.start();

        try (RawHttpClient client = RawHttpClient.connect(http.getAddress().getPort())) {
            assertEquals(200, client.send(get("/")).readResponse().status());
        }
        assertTrue(handlerThread.get().isVirtual(), "called on the connection's virtual thread");
        Thread work = workThread.poll(20, TimeUnit.SECONDS);
        assertNotNull(work);
        assertFalse(work.isVirtual());
        assertTrue(work.getName().startsWith("weft-handler-"), work.getName());
    }

    private static HandlerPool poolOf(TestServer server) {
        return (HandlerPool) server.server().getExecutor();
    }
}
