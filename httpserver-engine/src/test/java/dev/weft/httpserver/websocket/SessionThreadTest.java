package dev.weft.httpserver.websocket;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.config.ThreadsConfig;
import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static dev.weft.httpserver.testing.RawHttpClient.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A session lives long and mostly waits: when handlers run on platform threads, each session moves to a virtual
 * thread of its own, so open sessions never use up the server's handler threads.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SessionThreadTest {

    private final List<WebSocket> sockets = new ArrayList<>();
    private final HttpClient client = HttpClient.newHttpClient();
    private TestServer server;

    @AfterEach
    void stop() {
        client.shutdownNow();
        client.close();
        if (server != null) {
            server.close();
        }
    }

    @Test
    void onAPlatformThreadTheOpeningIsAnsweredBeforeTheHandlerReturns() throws Exception {
        // What calls the handler may touch the response fields as soon as it returns (a servlet container
        // finishing its response): the 101 must have been sent from them by then, not by the session's thread.
        BlockingQueue<Integer> statusWhenReturned = new LinkedBlockingQueue<>();
        WebSocketHandler echo = WebSocketHandler.builder(handshake -> new WebSocketListener() {
        }).build();
        server = TestServer.builder()
                .config(ServerConfig.builder().threads(ThreadsConfig.builder().virtual(false).build()).build())
                .handle("/echo", exchange -> {
                    echo.handle(exchange);
                    statusWhenReturned.add(exchange.getResponseCode());
                    exchange.getResponseHeaders().add("X-After", "the handler returned");
                })
                .start();

        WebSocket ws = client.newWebSocketBuilder()
                .buildAsync(URI.create("ws://127.0.0.1:" + server.port() + "/echo"),
                        new JdkClientInteropTest.Collector())
                .get(20, TimeUnit.SECONDS);
        sockets.add(ws);

        assertEquals(101, statusWhenReturned.poll(20, TimeUnit.SECONDS));
    }

    @Test
    void sessionsDoNotHoldThePlatformHandlerThreads() throws Exception {
        BlockingQueue<Thread> listenerThreads = new LinkedBlockingQueue<>();
        WebSocketHandler echo = WebSocketHandler.builder(handshake -> new WebSocketListener() {
            @Override
            public void onText(WebSocketSession session, String message) throws java.io.IOException {
                listenerThreads.add(Thread.currentThread());
                session.sendText(message);
            }
        }).build();
        server = TestServer.builder()
                .config(ServerConfig.builder().threads(ThreadsConfig.builder().virtual(false).max(1).minSpare(0)
                        .build()).webSocket(WebSocketConfig.defaults()).build())
                .handle("/echo", echo)
                .handle("/plain", exchange -> TestServer.respond(exchange, 200, "plain"))
                .start();

        // More open sessions than the server has handler threads.
        for (int i = 0; i < 3; i++) {
            JdkClientInteropTest.Collector collector = new JdkClientInteropTest.Collector();
            WebSocket ws = client.newWebSocketBuilder()
                    .buildAsync(URI.create("ws://127.0.0.1:" + server.port() + "/echo"), collector)
                    .get(20, TimeUnit.SECONDS);
            sockets.add(ws);
            ws.sendText("hello " + i, true).get(20, TimeUnit.SECONDS);
            assertEquals("hello " + i, collector.received.poll(20, TimeUnit.SECONDS));
        }
        try (RawHttpClient plain = server.connect()) {
            assertEquals("plain", plain.send(get("/plain")).readResponse().bodyText(),
                    "a request is served while the sessions stay open");
        }
        for (Thread t : listenerThreads) {
            assertTrue(t.isVirtual(), "listener ran on " + t);
        }
    }
}
