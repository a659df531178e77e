package dev.weft.httpserver.websocket;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.httpserver.testing.TestServer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/** Servers with WebSocket endpoints for the tests: {@code /echo} echoes every message back as it came. */
final class WebSocketTestServers {

    private WebSocketTestServers() {
    }

    /** What an echo listener saw, in order: "open" (or "open:extensions"), "text:...", "binary:n", "close:code", "error:...". */
    static final class Events {
        final BlockingQueue<String> queue = new LinkedBlockingQueue<>();

        String next() throws InterruptedException {
            String e = queue.poll(10, java.util.concurrent.TimeUnit.SECONDS);
            if (e == null) {
                throw new AssertionError("no listener event within 10 s");
            }
            return e;
        }

        /** Waits for the "close:..." event (skipping others) and returns it. */
        String close() throws InterruptedException {
            while (true) {
                String e = next();
                if (e.startsWith("close:")) {
                    return e;
                }
            }
        }
    }

    /** A listener that echoes text and binary messages and records what happened. */
    static WebSocketListener echo(Events events) {
        return new WebSocketListener() {
            @Override
            public void onOpen(WebSocketSession s) {
                events.queue.add(s.extensions().isEmpty() ? "open" : "open:" + String.join(",", s.extensions()));
            }

            @Override
            public void onText(WebSocketSession s, String m) throws IOException {
                events.queue.add("text:" + (m.length() > 200 ? m.length() + " chars" : m));
                s.sendText(m);
            }

            @Override
            public void onBinary(WebSocketSession s, ByteBuffer m) throws IOException {
                events.queue.add("binary:" + m.remaining());
                s.sendBinary(m);
            }

            @Override
            public void onClose(WebSocketSession s, CloseStatus status) {
                events.queue.add("close:" + status.code());
            }

            @Override
            public void onError(WebSocketSession s, Throwable t) {
                events.queue.add("error:" + t);
            }
        };
    }

    /** A server with {@code /echo} under {@code ws}'s settings. */
    static TestServer echoServer(WebSocketConfig ws, Events events) throws IOException {
        return TestServer.builder()
                .config(ServerConfig.builder().webSocket(ws).build())
                .handle("/echo", WebSocketHandler.builder(h -> echo(events)).build())
                .start();
    }
}
