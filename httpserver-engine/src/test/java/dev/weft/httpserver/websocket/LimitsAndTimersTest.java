package dev.weft.httpserver.websocket;

import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.Deflate;
import dev.weft.httpserver.testing.RawWsClient;
import dev.weft.httpserver.testing.TestServer;
import dev.weft.httpserver.testing.WebSocketTestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Size limits (decided from frame headers, and while inflating), the session's timers, the server's stop,
 * listener failures and the async send queue (message parts: {@link PartialMessageDeliveryTest}).
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LimitsAndTimersTest {

    private final WebSocketTestServers.Events events = new WebSocketTestServers.Events();
    private TestServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private RawWsClient open(WebSocketConfig ws, String extensions) throws IOException {
        server = WebSocketTestServers.echoServer(ws, events);
        return RawWsClient.openEcho(server.port(), extensions);
    }

    /** A masked frame header announcing {@code length} bytes, without any payload. */
    private static byte[] headerOnly(int opcode, boolean fin, long length) {
        byte[] h = new byte[14];
        h[0] = (byte) ((fin ? 0x80 : 0) | opcode);
        h[1] = (byte) (0x80 | 127);
        for (int i = 0; i < 8; i++) {
            h[2 + i] = (byte) (length >>> (56 - 8 * i));
        }
        return h; // the mask key (zeros) follows in the last four bytes
    }

    @Test
    void frameAnnouncedLargerThanMaxFrameSizeClosesWith1009BeforeItsPayloadIsSent() throws IOException {
        try (RawWsClient c = open(WebSocketConfig.builder().maxFrameSize(100_000).build(), null)) {
            c.sendRaw(headerOnly(0x2, true, 100_001));
            assertEquals(1009, c.readClose().closeCode());
        }
        assertEquals(1, server.awaitStats(s -> s.webSocket().protocolCloses() == 1)
                .webSocket().protocolCloses());
    }

    @Test
    void messageAtMaxMessageSizeIsAcceptedAndOneByteMoreAcrossFragmentsClosesWith1009() throws IOException {
        WebSocketConfig ws = WebSocketConfig.builder().maxMessageSize(100_000).compression(false).build();
        try (RawWsClient c = open(ws, null)) {
            c.send(true, 0x2, new byte[100_000]);
            assertEquals(100_000, c.read().payload().length);
            c.send(false, 0x2, new byte[60_000]);
            // The second fragment's header alone already passes the limit.
            c.sendRaw(headerOnly(0x0, true, 70_000));
            assertEquals(1009, c.readClose().closeCode());
        }
    }

    @Test
    void compressedMessageInflatingPastMaxMessageSizeClosesWith1009() throws IOException {
        WebSocketConfig ws = WebSocketConfig.builder().maxMessageSize(64 * 1024).build();
        try (RawWsClient c = open(ws, "permessage-deflate")) {
            byte[] atLimit = Deflate.compress(new byte[64 * 1024]);
            c.send(true, 4, 0x2, atLimit, true);
            assertEquals(64 * 1024, Deflate.inflate(c.read()).length);
            // 16 MiB of zeros deflate to about 16 KiB: a small frame, a large message.
            byte[] bomb = Deflate.compress(new byte[16 * 1024 * 1024]);
            assertTrue(bomb.length < 64 * 1024);
            c.send(true, 4, 0x2, bomb, true);
            assertEquals(1009, c.readClose().closeCode());
        }
    }

    @Test
    void idleSessionIsClosedWith1001() throws Exception {
        try (RawWsClient c = open(WebSocketConfig.builder().idleTimeout(Duration.ofMillis(300)).build(), null)) {
            RawWsClient.Frame close = c.readClose();
            assertEquals(1001, close.closeCode());
            c.sendClose(1001);
            assertTrue(c.closedByServer(5000));
        }
        assertEquals("close:1001", events.close());
    }

    @Test
    void quietSessionIsPingedAtPingInterval() throws IOException {
        WebSocketConfig ws = WebSocketConfig.builder().pingInterval(Duration.ofMillis(200)).build();
        try (RawWsClient c = open(ws, null)) {
            RawWsClient.Frame ping = c.read();
            assertEquals(0x9, ping.opcode());
            c.send(true, 0xA, ping.payload());
            assertEquals(0x9, c.read().opcode(), "pinged again while quiet");
        }
    }

    @Test
    void stopClosesOpenSessionsWith1001InsteadOfWaitingForThem() throws Exception {
        try (RawWsClient c = open(WebSocketConfig.defaults(), null)) {
            CompletableFuture<Boolean> drained = Weft.shutdownGracefully(server.server());
            assertEquals(1001, c.readClose().closeCode());
            c.sendClose(1001);
            assertTrue(c.closedByServer(5000));
            assertTrue(drained.get(10, TimeUnit.SECONDS), "the drain completed without forcing connections");
        }
        assertEquals("close:1001", events.close());
    }

    @Test
    void stopWithDelayReturnsOnceSessionsHaveClosed() throws Exception {
        RawWsClient c = open(WebSocketConfig.defaults(), null);
        Thread client = Thread.ofVirtual().start(() -> {
            try (c) {
                c.readClose();
                c.sendClose(1001);
                c.closedByServer(5000);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        // stop(60) waits for in-flight exchanges; the session's close handshake ends it long before that
        // (the test's timeout fails it otherwise)
        server.server().stop(60);
        client.join();
    }

    @Test
    void listenerExceptionCallsOnErrorAndClosesWith1011() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        server = TestServer.builder().handle("/boom", WebSocketHandler.builder(h -> new WebSocketListener() {
            @Override
            public void onText(WebSocketSession s, String m) {
                throw new IllegalStateException("boom");
            }

            @Override
            public void onError(WebSocketSession s, Throwable t) {
                seen.add("error:" + t.getMessage());
            }

            @Override
            public void onClose(WebSocketSession s, CloseStatus status) {
                seen.add("close:" + status.code());
            }
        }).build()).start();
        try (RawWsClient c = RawWsClient.open(server.port(), "/boom", null)) {
            c.sendText("x");
            assertEquals(1011, c.readClose().closeCode());
            c.sendClose(1011);
            assertTrue(c.closedByServer(5000));
        }
        Await.until("onError and onClose", () -> seen.size() >= 2);
        assertEquals(List.of("error:boom", "close:1011"), seen);
    }

    @Test
    void asyncSendsGoOutInOrderAndFailBeyondMaxQueuedBytes() throws Exception {
        List<CompletableFuture<Void>> futures = new ArrayList<>();
        List<Throwable> refused = new CopyOnWriteArrayList<>();
        WebSocketConfig ws = WebSocketConfig.builder().maxQueuedBytes(10_000).compression(false).build();
        server = TestServer.builder().config(ServerConfig.builder().webSocket(ws).build())
                .handle("/async", WebSocketHandler.builder(h -> new WebSocketListener() {
                    @Override
                    public void onText(WebSocketSession s, String m) throws IOException {
                        for (int i = 0; i < 100; i++) {
                            futures.add(s.sendTextAsync("m" + i));
                        }
                        s.sendText("blocking");
                        s.sendBinaryAsync(ByteBuffer.allocate(20_000)).whenComplete((v, t) -> refused.add(t));
                    }
                }).build()).start();
        try (RawWsClient c = RawWsClient.open(server.port(), "/async", null)) {
            c.sendText("go");
            for (int i = 0; i < 100; i++) {
                assertEquals("m" + i, c.read().text());
            }
            assertEquals("blocking", c.read().text(), "a blocking send goes after what was queued before it");
        }
        for (CompletableFuture<Void> f : futures) {
            f.get(5, TimeUnit.SECONDS);
        }
        Await.until("the oversized send to fail", () -> !refused.isEmpty());
        assertEquals(1, refused.size());
        assertTrue(refused.get(0) instanceof IOException, String.valueOf(refused.get(0)));
    }

    @Test
    void sendingOtherMessagesWhileOneIsSentInPartsIsRefused() throws Exception {
        List<String> outcome = new CopyOnWriteArrayList<>();
        server = TestServer.builder().handle("/mix", WebSocketHandler.builder(h -> new WebSocketListener() {
            @Override
            public void onText(WebSocketSession s, String m) throws IOException {
                s.sendText("a", false);
                outcome.add(assertThrows(IllegalStateException.class, () -> s.sendBinary(ByteBuffer.allocate(1)))
                        .getMessage());
                s.sendPing(ByteBuffer.wrap(new byte[] {7})); // control frames may go between parts
                s.sendText("b", true);
            }
        }).build()).start();
        try (RawWsClient c = RawWsClient.open(server.port(), "/mix", null)) {
            c.sendText("go");
            RawWsClient.Frame first = c.read();
            assertEquals(0x1, first.opcode());
            assertEquals(false, first.fin());
            assertEquals(0x9, c.read().opcode());
            RawWsClient.Frame last = c.read();
            assertEquals(0x0, last.opcode());
            assertArrayEquals("b".getBytes(StandardCharsets.UTF_8), last.payload());
        }
        assertEquals(1, outcome.size());
    }
}
