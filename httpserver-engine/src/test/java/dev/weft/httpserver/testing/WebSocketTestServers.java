package dev.weft.httpserver.testing;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.httpserver.websocket.CloseStatus;
import dev.weft.httpserver.websocket.WebSocketHandler;
import dev.weft.httpserver.websocket.WebSocketListener;
import dev.weft.httpserver.websocket.WebSocketSession;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Servers with WebSocket endpoints for the tests: {@code /echo} echoes every message back as it came. The
 * conformance suites start theirs through an {@link EchoServerFactory}, so that other modules (the Jakarta
 * container) run the same cases against their own echo endpoint through the engine's test-jar.
 */
public final class WebSocketTestServers {

    private WebSocketTestServers() {
    }

    /** A started server with an {@code /echo} endpoint on {@code 127.0.0.1}. */
    public interface EchoServer extends AutoCloseable {
        /** Its port. */
        int port();

        @Override
        void close();
    }

    /** Starts an echo server under {@code ws}'s settings whose endpoint reports what it sees to {@code events}. */
    @FunctionalInterface
    public interface EchoServerFactory {
        EchoServer start(WebSocketConfig ws, Events events) throws IOException;
    }

    /** What an echo listener saw, in order: "open" (or "open:extensions"), "text:...", "binary:n", "close:code", "error:...". */
    public static final class Events {
        final BlockingQueue<String> queue = new LinkedBlockingQueue<>();

        /** Records an event. */
        public void add(String event) {
            queue.add(event);
        }

        /** Forgets the events recorded so far. */
        public void clear() {
            queue.clear();
        }

        /** The next event; fails after 10 s without one. */
        public String next() throws InterruptedException {
            String e = queue.poll(10, java.util.concurrent.TimeUnit.SECONDS);
            if (e == null) {
                throw new AssertionError("no listener event within 10 s");
            }
            return e;
        }

        /** Waits for the "close:..." event (skipping others) and returns it. */
        public String close() throws InterruptedException {
            while (true) {
                String e = next();
                if (e.startsWith("close:")) {
                    return e;
                }
            }
        }
    }

    /** A listener that echoes text and binary messages and records what happened. */
    public static WebSocketListener echo(Events events) {
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
    public static TestServer echoServer(WebSocketConfig ws, Events events) throws IOException {
        return TestServer.builder()
                .config(ServerConfig.builder().webSocket(ws).build())
                .handle("/echo", WebSocketHandler.builder(h -> echo(events)).build())
                .start();
    }

    /** The engine's own echo server ({@link #echo}) as a factory, for the conformance suites. */
    public static EchoServer engineEchoServer(WebSocketConfig ws, Events events) throws IOException {
        TestServer server = echoServer(ws, events);
        return new EchoServer() {
            @Override
            public int port() {
                return server.port();
            }

            @Override
            public void close() {
                server.close();
            }
        };
    }
}
