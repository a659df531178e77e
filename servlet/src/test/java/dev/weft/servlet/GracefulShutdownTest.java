package dev.weft.servlet;

import dev.weft.httpserver.Weft;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.ConnectProbe;
import dev.weft.servlet.testing.Http;
import dev.weft.servlet.testing.ServletServer;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine's graceful shutdown lets in-flight servlet requests, blocking or asynchronous, finish. */
class GracefulShutdownTest {

    @Test
    void aBlockingRequestInFlightFinishesAndNewConnectionsAreRefused() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (ServletServer s = ServletServer.start(b -> b.initializer((classes, ctx) ->
                ctx.addServlet("slow", new HttpServlet() {
                    @Override
                    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                        entered.countDown();
                        try {
                            release.await(30, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        resp.getWriter().print("finished");
                    }
                }).addMapping("/slow")))) {
            CompletableFuture<HttpResponse<String>> inFlight = Http.client().sendAsync(
                    Http.request(s.uri("/slow")).build(), HttpResponse.BodyHandlers.ofString());
            assertTrue(entered.await(30, TimeUnit.SECONDS));
            CompletableFuture<Boolean> drained = Weft.shutdownGracefully(s.server());
            Await.until("the listener to refuse new connections", () -> ConnectProbe.refused(s.port()));
            assertFalse(drained.isDone(), "the drain waits for the request");
            release.countDown();
            HttpResponse<String> r = inFlight.get(30, TimeUnit.SECONDS);
            assertEquals(200, r.statusCode());
            assertEquals("finished", r.body());
            assertTrue(drained.get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void anAsyncRequestKeepsTheDrainWaitingUntilItCompletes() throws Exception {
        AtomicReference<AsyncContext> started = new AtomicReference<>();
        try (ServletServer s = ServletServer.start(b -> b.initializer((classes, ctx) -> {
            var r = ctx.addServlet("async", new HttpServlet() {
                @Override
                protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                    AsyncContext ac = req.startAsync();
                    ac.setTimeout(0);
                    started.set(ac);
                }
            });
            r.addMapping("/async");
            r.setAsyncSupported(true);
        }))) {
            CompletableFuture<HttpResponse<String>> inFlight = Http.client().sendAsync(
                    Http.request(s.uri("/async")).build(), HttpResponse.BodyHandlers.ofString());
            Await.until("the async cycle to start", () -> started.get() != null);
            CompletableFuture<Boolean> drained = Weft.shutdownGracefully(s.server());
            assertFalse(drained.isDone());
            AsyncContext ac = started.get();
            ac.getResponse().getWriter().print("completed later");
            ac.complete();
            HttpResponse<String> r = inFlight.get(30, TimeUnit.SECONDS);
            assertEquals("completed later", r.body());
            assertTrue(drained.get(30, TimeUnit.SECONDS));
        }
    }
}
