package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.AccessLogLines;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.RawHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The opt-in statistics page and access log. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StatsAndAccessLogTest {

    private static final Pattern REQUESTS = Pattern.compile("requests\\D{0,12}?(\\d+)");

    private HttpServer server;
    private Logger accessLogger;
    private Handler capture;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
        if (accessLogger != null) {
            accessLogger.removeHandler(capture);
        }
    }

    private int start(ServerConfig config) throws IOException {
        server = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, config);
        server.createContext("/hello", ex -> {
            ex.sendResponseHeaders(200, 2);
            ex.getResponseBody().write("hi".getBytes());
            ex.close();
        });
        server.start();
        return server.getAddress().getPort();
    }

    private static RawHttpClient.Response send(RawHttpClient c, String method, String target) throws IOException {
        return c.send(method + " " + target + " HTTP/1.1\r\nHost: localhost\r\n\r\n").readResponse();
    }

    private static long requestsOnPage(String page) {
        Matcher m = REQUESTS.matcher(page);
        if (!m.find()) {
            fail("no requests counter on the stats page:\n" + page);
        }
        return Long.parseLong(m.group(1));
    }

    @Test
    void statsPageListsCountersThatGrowWithTraffic() throws IOException {
        int port = start(ServerConfig.builder().statsPath("/__stats").build());
        try (RawHttpClient c = RawHttpClient.connect(port)) {
            RawHttpClient.Response first = send(c, "GET", "/__stats");
            assertEquals(200, first.status(), first::toString);
            String page = first.bodyText();
            assertTrue(page.contains("requests"), page);
            long before = requestsOnPage(page);

            assertEquals(200, send(c, "GET", "/hello").status());
            assertEquals(200, send(c, "GET", "/hello").status());
            assertEquals(404, send(c, "GET", "/missing").status());

            String after = send(c, "GET", "/__stats").bodyText();
            assertTrue(requestsOnPage(after) >= before + 3,
                    "requests counter did not grow:\nbefore:\n" + page + "\nafter:\n" + after);
        }
    }

    @Test
    void statsPageIsOffByDefault() throws IOException {
        int port = start(ServerConfig.defaults());
        try (RawHttpClient c = RawHttpClient.connect(port)) {
            assertEquals(404, send(c, "GET", "/__stats").status());
        }
    }

    @Test
    void statsSnapshotCountsConnectionsAndRequests() throws Exception {
        int port = start(ServerConfig.defaults());
        StatsSnapshot before = Weft.stats(server);
        try (RawHttpClient c = RawHttpClient.connect(port)) {
            assertEquals(200, send(c, "GET", "/hello").status());
            assertEquals(200, send(c, "GET", "/hello").status());
        }
        StatsSnapshot last = Await.value("the two requests and their bytes to be counted", () -> Weft.stats(server),
                after -> after.requests() >= before.requests() + 2 && after.bytesSent() > before.bytesSent());
        assertEquals(before.requests() + 2, last.requests(), last::toString);
        assertEquals(before.connectionsAccepted() + 1, last.connectionsAccepted(), last::toString);
        assertTrue(last.bytesSent() > before.bytesSent(), last::toString);
        assertTrue(last.bytesReceived() > before.bytesReceived(), last::toString);
    }

    @Test
    void accessLogRecordsMethodPathAndStatus() throws Exception {
        try (AccessLogLines log = AccessLogLines.capture()) {
            int port = start(ServerConfig.builder().accessLog(true).build());
            try (RawHttpClient c = RawHttpClient.connect(port)) {
                assertEquals(200, send(c, "GET", "/hello/world?x=1").status());
                assertEquals(404, send(c, "DELETE", "/nowhere").status());
            }

            String ok = log.until("/hello/world");
            assertTrue(ok.contains("GET") && ok.contains(" 200"), ok);
            String missing = log.until("/nowhere");
            assertTrue(missing.contains("DELETE") && missing.contains(" 404"), missing);
        }
    }

    @Test
    void accessLogIsOffByDefault() throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        accessLogger = Logger.getLogger("dev.weft.httpserver.access");
        accessLogger.setLevel(Level.ALL);
        capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(String.valueOf(record.getMessage()));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        accessLogger.addHandler(capture);
        int port = start(ServerConfig.defaults());
        try (RawHttpClient c = RawHttpClient.connect(port)) {
            assertEquals(200, send(c, "GET", "/hello/quiet").status());
            // the sentinel: a connection logs an exchange before it reads the next request
            assertEquals(200, send(c, "GET", "/hello/next").status());
        }
        assertEquals(List.of(), lines.stream().filter(l -> l.contains("/hello/quiet")).toList());
    }
}
