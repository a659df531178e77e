package dev.weft.httpserver.core;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.ServerStats;
import dev.weft.httpserver.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Acceptor}: a connection that cannot be started is closed, and the server goes on accepting. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AcceptorTest {

    private ServerSocket listener;
    private Thread acceptor;

    @AfterEach
    void stop() throws Exception {
        if (listener != null) {
            listener.close();
        }
        if (acceptor != null) {
            acceptor.join(5000);
        }
    }

    @Test
    void outOfMemoryStartingAConnectionClosesItAndTheAcceptorKeepsAccepting() throws Exception {
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        ServerStats stats = new ServerStats();
        ConnectionRegistry registry = new ConnectionRegistry(ServerConfig.defaults(), stats);
        AtomicInteger started = new AtomicInteger();
        ThreadFactory virtual = Thread.ofVirtual().factory();
        // The first two connections fail as a full heap makes them fail: when their thread is created.
        ThreadFactory failing = task -> {
            if (started.incrementAndGet() <= 2) {
                throw new OutOfMemoryError("test: no heap for the connection");
            }
            return virtual.newThread(task);
        };
        ConnectionServer hello = c -> {
            c.output().write("hello\n".getBytes(StandardCharsets.US_ASCII));
            c.output().flush();
        };
        acceptor = new Acceptor(listener, registry, stats,
                stats.listener("http", (java.net.InetSocketAddress) listener.getLocalSocketAddress()),
                TransportSecurity.NONE, hello, failing).start();

        for (int i = 0; i < 2; i++) {
            try (Socket s = connect()) {
                assertEquals("", readAll(s.getInputStream()), "the failed connection is closed without an answer");
            }
        }
        try (Socket s = connect()) {
            assertEquals("hello\n", readAll(s.getInputStream()));
        }
        assertTrue(acceptor.isAlive(), "the accept loop survived");
        // the last connection gives its slot back when its thread ends, a moment after the client's end of stream
        Await.until("every connection, the failed ones too, to give its slot back", () -> registry.size() == 0);
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort()), 5000);
        s.setSoTimeout(10_000);
        return s;
    }

    private static String readAll(InputStream in) throws IOException {
        try {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (SocketException reset) {
            return ""; // closed with unread input: a reset is as good as an end of stream here
        }
    }
}
