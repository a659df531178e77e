package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.RawHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** maxConnections: connections beyond the limit get 503 and are closed; capacity comes back when one closes. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
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
     * A new connection, still open, if the server admits it (answers a request with 200); null if it refuses
     * it: on a connection over the limit the server writes its 503 without waiting for a request and closes,
     * which may also reset ours.
     */
    private RawHttpClient admittedConnection() {
        RawHttpClient next = null;
        try {
            next = RawHttpClient.connect(port);
            if (next.send(GET).readResponse().status() == 200) {
                return next;
            }
        } catch (IOException refused) {
            // refused
        }
        try {
            if (next != null) {
                next.close();
            }
        } catch (IOException ignored) {
            // closed either way
        }
        return null;
    }

    @Test
    void connectionOverTheLimitGets503AndIsClosed() throws Exception {
        try (RawHttpClient a = RawHttpClient.connect(port); RawHttpClient b = RawHttpClient.connect(port)) {
            assertEquals(200, a.send(GET).readResponse().status());
            assertEquals(200, b.send(GET).readResponse().status());

            try (RawHttpClient third = RawHttpClient.connect(port)) {
                // a refusal needs no request: the 503 is written as the connection is accepted
                RawHttpClient.Response r = third.readResponse();
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
                assertEquals(503, third.readResponse().status());
            }

            // the server learns of the close when the connection's thread reads its end: until then, new
            // connections are still refused
            a.close();
            try (RawHttpClient next = Await.value("a new connection to be admitted after one of two closed",
                    this::admittedConnection, c -> true)) {
                assertEquals(200, next.send(GET).readResponse().status(), "admitted connection not kept");
            }
        } finally {
            a.close();
        }
    }
}
