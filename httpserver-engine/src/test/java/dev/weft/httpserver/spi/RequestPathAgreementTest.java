package dev.weft.httpserver.spi;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.ConfusingPaths;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Over HTTP/1.1, context routing, {@code getRequestURI()}, the access log and the statistics agree on a request's
 * path, however it is spelled: {@code //evil.example/actuator/health} is a path, not a host and
 * {@code /actuator/health}; dot-segments are refused.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RequestPathAgreementTest {

    private TestServer server;

    @BeforeEach
    void start() throws IOException {
        start(ServerConfig.defaults());
    }

    private void start(ServerConfig config) throws IOException {
        server = TestServer.start(config);
        server.server().removeContext("/");
        ConfusingPaths.createContexts(server.server());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    static List<ConfusingPaths.Case> originForm() {
        return ConfusingPaths.originForm();
    }

    private RawHttpClient.Response get(String target) throws IOException {
        try (RawHttpClient c = server.connect()) {
            return c.send("GET " + target + " HTTP/1.1\r\nHost: localhost\r\n\r\n").readResponse();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("originForm")
    void routingAndRequestUriAgreeOnThePathAsSent(ConfusingPaths.Case c) throws IOException {
        RawHttpClient.Response r = get(c.target());

        assertEquals(c.status(), r.status(), r::toString);
        if (c.report() != null) {
            assertEquals(c.report(), r.bodyText());
        }
    }

    @Test
    void doubleSlashPathIsNotServedByTheContextItsSecondSegmentNames() throws IOException {
        server.server().removeContext("/");

        assertEquals(404, get("//evil.example/actuator/health").status());
        assertEquals(404, get("//actuator/health").status());
        assertEquals(200, get("/actuator/health").status(), "the sentinel: the context itself still serves");
    }

    @Test
    void absoluteFormPathsFollowTheSameRules() throws IOException {
        assertEquals("context=/ raw=//evil.example/actuator/health path=//evil.example/actuator/health"
                + " authority=localhost query=null", get("http://localhost//evil.example/actuator/health").bodyText());
        assertEquals("context=/actuator raw=/actuator/health path=/actuator/health authority=localhost query=x",
                get("http://localhost/actuator/health?x").bodyText());
        assertEquals("context=/ raw= path= authority=localhost query=null", get("http://localhost").bodyText());
        assertEquals(400, get("http://localhost/a/../actuator/health").status());
        assertEquals(400, get("http://localhost/a/%2e%2e/actuator/health").status());
    }

    @Test
    void literalBackslashIsRefused() throws IOException {
        assertEquals(400, get("/a\\b").status());
        assertEquals(400, get("/a\\..\\actuator").status());
    }

    @Test
    void accessLogShowsThePathAsSentAndRefusalsAreCounted() throws Exception {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Logger access = Logger.getLogger("dev.weft.httpserver.access");
        access.setLevel(Level.INFO);
        SimpleFormatter formatter = new SimpleFormatter();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(formatter.formatMessage(record));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        access.addHandler(capture);
        access.setUseParentHandlers(false);
        try {
            server.close();
            start(ServerConfig.builder().accessLog(true).build());
            long refusedBefore = refused(server.stats());

            assertEquals(200, get("//evil.example/actuator/health").status());
            assertEquals(400, get("/a/%2e%2e/actuator/health").status());
            assertEquals(200, get("/actuator/health?sentinel").status());

            String log = linesUntil(lines, "?sentinel");
            assertTrue(log.contains("\"GET //evil.example/actuator/health HTTP/1.1\" 200"), log);
            assertTrue(log.contains("\"GET /actuator/health?sentinel HTTP/1.1\" 200"), log);
            StatsSnapshot after = server.awaitStats(s -> refused(s) > refusedBefore, Duration.ofSeconds(10));
            assertEquals(refusedBefore + 1, refused(after), after::toString);
        } finally {
            access.removeHandler(capture);
            access.setUseParentHandlers(true);
        }
    }

    private static long refused(StatsSnapshot s) {
        return s.protocolErrors().getOrDefault(ProtocolError.BAD_REQUEST_TARGET, 0L);
    }

    /** The lines logged up to the first containing {@code text}, joined. */
    private static String linesUntil(BlockingQueue<String> lines, String text) throws InterruptedException {
        StringBuilder seen = new StringBuilder();
        for (String l; (l = lines.poll(10, TimeUnit.SECONDS)) != null; ) {
            seen.append(l).append('\n');
            if (l.contains(text)) {
                return seen.toString();
            }
        }
        return fail("no access log line containing " + text + " in:\n" + seen);
    }
}
