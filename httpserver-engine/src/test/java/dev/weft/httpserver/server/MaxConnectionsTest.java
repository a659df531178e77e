package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.RawHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** maxConnections: connections beyond the limit get 503 and are closed; capacity comes back when one closes. */
@Timeout(value = 15, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MaxConnectionsTest {

    private static final String GET = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n";

    private HttpServer server;
    private int port;

    @BeforeEach
    void start() throws IOException {
        server = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0,
                ServerConfig.builder().maxConnections(2).build());
        server.createContext("/", ex -> {
            ex.sendResponseHeaders(200, 2);
            ex.getResponseBody().write("ok".getBytes());
            ex.close();
        });
        server.start();
        port = server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    /**
     * The answer on a connection: the server may write it unprompted (a rejection at accept) or only after
     * reading a request; we wait half a second for an unprompted answer, then send a request.
     */
    private static RawHttpClient.Response answer(RawHttpClient c) throws IOException {
        c.socket().setSoTimeout(500);
        try {
            return c.readResponse();
        } catch (SocketTimeoutException nothingYet) {
            c.socket().setSoTimeout(5000);
            return c.send(GET).readResponse();
        } finally {
            if (!c.socket().isClosed()) {
                c.socket().setSoTimeout(5000);
            }
        }
    }

    @Test
    void connectionOverTheLimitGets503AndIsClosed() throws Exception {
        try (RawHttpClient a = RawHttpClient.connect(port); RawHttpClient b = RawHttpClient.connect(port)) {
            assertEquals(200, a.send(GET).readResponse().status());
            assertEquals(200, b.send(GET).readResponse().status());

            try (RawHttpClient third = RawHttpClient.connect(port)) {
                RawHttpClient.Response r = answer(third);
                assertEquals(503, r.status(), r::toString);
                assertTrue(r.hasConnectionToken("close"), r::toString);
                assertTrue(third.serverClosed(), "rejected connection left open");
            }
            StatsSnapshot s = Weft.stats(server);
            assertEquals(1, s.connectionsRejected(), s::toString);

            // the two admitted connections still work
            assertEquals(200, a.send(GET).readResponse().status());
            assertEquals(200, b.send(GET).readResponse().status());
        }
    }

    @Test
    void closingAnAdmittedConnectionMakesRoomForANewOne() throws Exception {
        RawHttpClient a = RawHttpClient.connect(port);
        try (RawHttpClient b = RawHttpClient.connect(port)) {
            assertEquals(200, a.send(GET).readResponse().status());
            assertEquals(200, b.send(GET).readResponse().status());
            try (RawHttpClient third = RawHttpClient.connect(port)) {
                assertEquals(503, answer(third).status());
            }

            a.close();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            int last = -1;
            while (System.nanoTime() < deadline) {
                try (RawHttpClient next = RawHttpClient.connect(port, Duration.ofSeconds(2))) {
                    last = answer(next).status();
                    if (last == 200) {
                        assertEquals(200, next.send(GET).readResponse().status(), "admitted connection not kept");
                        return;
                    }
                } catch (IOException closedWithoutAnswer) {
                    last = -2;
                }
                Thread.sleep(50);
            }
            fail("no connection admitted after one of two closed; last answer " + last);
        } finally {
            a.close();
        }
    }
}
