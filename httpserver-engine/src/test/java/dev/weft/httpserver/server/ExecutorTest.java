package dev.weft.httpserver.server;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.RawHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.weft.httpserver.testing.RawHttpClient.get;
import static dev.weft.httpserver.testing.TestServer.respond;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where handlers run: inline on the connection's virtual thread by default, else on the set executor. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ExecutorTest {

    private HttpServer server;
    private ExecutorService pool;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    private HttpServer create() throws IOException {
        server = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        return server;
    }

    @Test
    void withoutExecutorHandlersRunOnTheConnectionsOwnVirtualThread() throws IOException {
        List<Thread> threads = new CopyOnWriteArrayList<>();
        create().createContext("/", ex -> {
            threads.add(Thread.currentThread());
            respond(ex, 200, "ok");
        });
        server.start();
        int port = server.getAddress().getPort();

        try (RawHttpClient first = RawHttpClient.connect(port); RawHttpClient second = RawHttpClient.connect(port)) {
            assertEquals(200, first.send(get("/1")).readResponse().status());
            assertEquals(200, first.send(get("/2")).readResponse().status());
            assertEquals(200, second.send(get("/3")).readResponse().status());
        }

        assertEquals(3, threads.size());
        assertTrue(threads.get(0).isVirtual(), "handler thread is not virtual: " + threads.get(0));
        assertSame(threads.get(0), threads.get(1), "keep-alive requests on one connection ran on different threads");
        assertEquals(threads.get(0).getName(), threads.get(1).getName());
        assertTrue(threads.get(2).isVirtual());
        assertNotSame(threads.get(0), threads.get(2), "two connections shared one thread");
    }

    @Test
    void withExecutorHandlersRunOnItsThreads() throws IOException {
        AtomicInteger n = new AtomicInteger();
        pool = Executors.newFixedThreadPool(2, r -> new Thread(r, "test-pool-" + n.incrementAndGet()));
        List<Thread> threads = new CopyOnWriteArrayList<>();
        create().createContext("/", ex -> {
            threads.add(Thread.currentThread());
            respond(ex, 200, Thread.currentThread().getName());
        });
        server.setExecutor(pool);
        assertSame(pool, server.getExecutor());
        server.start();
        int port = server.getAddress().getPort();

        try (RawHttpClient a = RawHttpClient.connect(port); RawHttpClient b = RawHttpClient.connect(port)) {
            for (int i = 0; i < 3; i++) {
                assertTrue(a.send(get("/a")).readResponse().bodyText().startsWith("test-pool-"));
                assertTrue(b.send(get("/b")).readResponse().bodyText().startsWith("test-pool-"));
            }
        }
        assertEquals(6, threads.size());
        for (Thread t : threads) {
            assertTrue(t.getName().startsWith("test-pool-"), t.getName());
            assertFalse(t.isVirtual());
        }
    }

    @Test
    void exchangeCompletedLaterFromAnotherThreadWithoutExecutor() throws Exception {
        completesLaterFromAnotherThread(null);
    }

    @Test
    void exchangeCompletedLaterFromAnotherThreadWithExecutor() throws Exception {
        pool = Executors.newFixedThreadPool(2);
        completesLaterFromAnotherThread(pool);
    }

    /**
     * The handler hands the exchange to the test thread and returns at once; once it has returned, the test
     * thread answers it. The client gets that answer, and the connection then serves the next request.
     */
    private void completesLaterFromAnotherThread(ExecutorService executor) throws Exception {
        BlockingQueue<HttpExchange> handedOver = new LinkedBlockingQueue<>();
        CountDownLatch handlerReturned = new CountDownLatch(1);
        HttpContext context = create().createContext("/", ex -> {
            if (ex.getRequestURI().getPath().equals("/later")) {
                handedOver.add(ex);
            } else {
                respond(ex, 200, "sync");
            }
        });
        context.getFilters().add(Filter.afterHandler("handler returned", ex -> {
            if (ex.getRequestURI().getPath().equals("/later")) {
                handlerReturned.countDown();
            }
        }));
        server.setExecutor(executor);
        server.start();

        try (RawHttpClient c = RawHttpClient.connect(server.getAddress().getPort())) {
            c.send(get("/later"));
            HttpExchange ex = handedOver.poll(20, TimeUnit.SECONDS);
            assertNotNull(ex, "handler never ran");
            Await.latch("the handler to return", handlerReturned);
            Thread answering = new Thread(() -> {
                try {
                    respond(ex, 200, "answered later");
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            }, "test-late-answer");
            answering.start();
            RawHttpClient.Response r = c.readResponse();
            assertEquals(200, r.status());
            assertEquals("answered later", r.bodyText());
            answering.join();

            RawHttpClient.Response next = c.send(get("/next")).readResponse();
            assertEquals("sync", next.bodyText());
        }
    }
}
