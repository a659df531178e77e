package dev.weft.servlet.async;

import dev.weft.httpserver.testing.Await;
import dev.weft.servlet.ErrorPage;
import dev.weft.servlet.testing.Http;
import dev.weft.servlet.testing.PathReport;
import dev.weft.servlet.testing.ServletServer;
import dev.weft.servlet.testing.Servlets;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Asynchronous processing (Servlet 6.1 §2.3.3.3): complete, dispatch, timeouts, listeners and errors. */
class AsyncTest {

    private static ServletServer server;
    private static final List<String> events = new CopyOnWriteArrayList<>();
    private static volatile CountDownLatch release = new CountDownLatch(1);

    private static void map(ServletContext ctx, String path, boolean async, Servlets.Action action) {
        Servlets.map(ctx, path, action).setAsyncSupported(async);
    }

    private static AsyncListener recording(String name) {
        return new AsyncListener() {
            @Override
            public void onComplete(AsyncEvent event) {
                events.add(name + ":complete");
            }

            @Override
            public void onTimeout(AsyncEvent event) throws IOException {
                events.add(name + ":timeout");
            }

            @Override
            public void onError(AsyncEvent event) {
                events.add(name + ":error " + event.getThrowable().getMessage());
            }

            @Override
            public void onStartAsync(AsyncEvent event) {
                events.add(name + ":startAsync");
            }
        };
    }

    @BeforeAll
    static void start() throws IOException {
        server = ServletServer.start(b -> b
                .errorPage(ErrorPage.forStatus(500, "/error"))
                .initializer((classes, ctx) -> {
                    map(ctx, "/error", true, new PathReport("error")::service);
                    map(ctx, "/later", true, (req, resp) -> {
                        AsyncContext ac = req.startAsync();
                        ac.addListener(recording("later"));
                        CompletableFuture.runAsync(() -> {
                            try {
                                release.await(20, TimeUnit.SECONDS);
                                ac.getResponse().getWriter().print("done later");
                            } catch (IOException | InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                            ac.complete();
                        });
                    });
                    map(ctx, "/dispatch-back", true, (req, resp) -> {
                        if (req.getDispatcherType() == DispatcherType.ASYNC) {
                            resp.getWriter().print("async " + req.getAttribute("result") + " "
                                    + req.getAttribute(AsyncContext.ASYNC_REQUEST_URI) + " " + req.isAsyncStarted());
                            return;
                        }
                        AsyncContext ac = req.startAsync();
                        ac.start(() -> {
                            req.setAttribute("result", "computed");
                            ac.dispatch();
                        });
                    });
                    map(ctx, "/dispatch-path", true, (req, resp) -> {
                        AsyncContext ac = req.startAsync();
                        ac.start(() -> ac.dispatch("/report?from=async"));
                    });
                    map(ctx, "/report", true, new PathReport("report")::service);
                    map(ctx, "/listener-after-complete", true, (req, resp) -> {
                        AsyncContext ac = req.startAsync();
                        resp.getWriter().print("early");
                        ac.complete();
                        // What a filter does once the servlet returned (Spring's ServerHttpObservationFilter).
                        if (req.isAsyncStarted()) {
                            req.getAsyncContext().addListener(recording("late"));
                        }
                    });
                    map(ctx, "/complete-early", true, (req, resp) -> {
                        AsyncContext ac = req.startAsync();
                        resp.getWriter().print("started=" + req.isAsyncStarted());
                        ac.complete();
                        resp.getWriter().print(" stillStarted=" + req.isAsyncStarted());
                    });
                    map(ctx, "/timeout", true, (req, resp) -> {
                        AsyncContext ac = req.startAsync();
                        ac.setTimeout(100);
                        ac.addListener(recording("timeout"));
                    });
                    map(ctx, "/timeout-handled", true, (req, resp) -> {
                        AsyncContext ac = req.startAsync();
                        ac.setTimeout(100);
                        ac.addListener(new AsyncListener() {
                            @Override
                            public void onTimeout(AsyncEvent event) throws IOException {
                                event.getAsyncContext().getResponse().getWriter().print("handled the timeout");
                                event.getAsyncContext().complete();
                            }

                            @Override
                            public void onComplete(AsyncEvent event) {
                            }

                            @Override
                            public void onError(AsyncEvent event) {
                            }

                            @Override
                            public void onStartAsync(AsyncEvent event) {
                            }
                        });
                    });
                    map(ctx, "/not-async", false, (req, resp) -> req.startAsync());
                    map(ctx, "/twice", true, (req, resp) -> {
                        req.startAsync();
                        try {
                            req.startAsync();
                        } catch (IllegalStateException e) {
                            resp.getWriter().print("second startAsync refused");
                        }
                        req.getAsyncContext().complete();
                    });
                    map(ctx, "/restart", true, (req, resp) -> {
                        if (req.getDispatcherType() == DispatcherType.REQUEST) {
                            AsyncContext ac = req.startAsync();
                            ac.addListener(recording("first"));
                            ac.start(ac::dispatch);
                        } else {
                            AsyncContext ac = req.startAsync();
                            resp.getWriter().print("second cycle");
                            ac.complete();
                        }
                    });
                    map(ctx, "/throw-in-async-dispatch", true, (req, resp) -> {
                        if (req.getDispatcherType() == DispatcherType.ASYNC) {
                            throw new IllegalStateException("async dispatch failed");
                        }
                        AsyncContext ac = req.startAsync();
                        ac.addListener(recording("thrower"));
                        ac.start(ac::dispatch);
                    });
                }));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aResponseCompletedLaterOnAnotherThreadReachesTheClient() throws Exception {
        events.clear();
        release = new CountDownLatch(1);
        CompletableFuture<HttpResponse<String>> pending = Http.client().sendAsync(
                Http.request(server.uri("/later")).build(), HttpResponse.BodyHandlers.ofString());
        assertFalse(pending.isDone(), "nothing is sent before complete");
        release.countDown();
        HttpResponse<String> r = pending.get(30, TimeUnit.SECONDS);
        assertEquals(200, r.statusCode());
        assertEquals("done later", r.body());
        assertEquals("10", r.headers().firstValue("Content-Length").orElseThrow());
        Await.until("onComplete", () -> events.contains("later:complete"));
    }

    @Test
    void dispatchWithoutAPathReturnsToTheOriginalUriAsAnAsyncDispatch() throws Exception {
        assertEquals("async computed /dispatch-back false", Http.get(server.uri("/dispatch-back")).body());
    }

    @Test
    void dispatchToAPathShowsThatPathAndTheOriginalInAttributes() throws Exception {
        Map<String, String> r = PathReport.parse(Http.get(server.uri("/dispatch-path?x=1")).body());
        assertEquals("report", r.get("servlet"));
        assertEquals("ASYNC", r.get("dispatcherType"));
        assertEquals("/report", r.get("servletPath"));
        assertEquals("async", r.get("param.from"));
        assertEquals("1", r.get("param.x"));
    }

    @Test
    void completeDuringTheDispatchTakesEffectWhenItReturns() throws Exception {
        assertEquals("started=true stillStarted=true", Http.get(server.uri("/complete-early")).body());
    }

    @Test
    void aListenerAddedAfterCompleteInTheStartingDispatchIsToldOfTheCompletion() throws Exception {
        events.clear();
        HttpResponse<String> r = Http.get(server.uri("/listener-after-complete"));
        assertEquals(200, r.statusCode());
        assertEquals("early", r.body());
        Await.until("onComplete of the late listener", () -> events.equals(List.of("late:complete")));
    }

    @Test
    void anUnhandledTimeoutIsAnErrorDispatchWithStatus500() throws Exception {
        events.clear();
        HttpResponse<String> r = Http.get(server.uri("/timeout"));
        assertEquals(500, r.statusCode());
        Map<String, String> report = PathReport.parse(r.body());
        assertEquals("ERROR", report.get("dispatcherType"));
        assertEquals("500", report.get("jakarta.servlet.error.status_code"));
        Await.until("onTimeout then onComplete", () -> events.equals(List.of("timeout:timeout", "timeout:complete")));
    }

    @Test
    void aListenerCanAnswerTheTimeoutItself() throws Exception {
        HttpResponse<String> r = Http.get(server.uri("/timeout-handled"));
        assertEquals(200, r.statusCode());
        assertEquals("handled the timeout", r.body());
    }

    @Test
    void startAsyncWhereAsyncIsNotSupportedFails() throws Exception {
        HttpResponse<String> r = Http.get(server.uri("/not-async"));
        assertEquals(500, r.statusCode());
        assertEquals("error", PathReport.parse(r.body()).get("servlet"));
    }

    @Test
    void startAsyncTwiceInOneDispatchIsIllegal() throws Exception {
        assertEquals("second startAsync refused", Http.get(server.uri("/twice")).body());
    }

    @Test
    void aSecondCycleTellsTheFirstCyclesListenersOnStartAsync() throws Exception {
        events.clear();
        assertEquals("second cycle", Http.get(server.uri("/restart")).body());
        Await.until("onStartAsync", () -> events.contains("first:startAsync"));
        assertFalse(events.contains("first:complete"), "the first cycle's listener did not re-register");
    }

    @Test
    void anExceptionInAnAsyncDispatchGoesToOnErrorThenTheErrorPage() throws Exception {
        events.clear();
        HttpResponse<String> r = Http.get(server.uri("/throw-in-async-dispatch"));
        assertEquals(500, r.statusCode());
        assertEquals("error", PathReport.parse(r.body()).get("servlet"));
        assertTrue(events.contains("thrower:error async dispatch failed"), events.toString());
    }
}
