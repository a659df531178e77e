package dev.weft.httpserver.server;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.AccessLogLines;
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
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
            return c.send(RawHttpClient.get(target)).readResponse();
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
        try (AccessLogLines log = AccessLogLines.capture()) {
            server.close();
            start(ServerConfig.builder().accessLog(true).build());
            long refusedBefore = refused(server.stats());

            assertEquals(200, get("//evil.example/actuator/health").status());
            assertEquals(400, get("/a/%2e%2e/actuator/health").status());
            assertEquals(200, get("/actuator/health?sentinel").status());

            String lines = log.untilAll("//evil.example/actuator/health HTTP/1.1", "?sentinel");
            assertTrue(lines.contains("\"GET //evil.example/actuator/health HTTP/1.1\" 200"), lines);
            assertTrue(lines.contains("\"GET /actuator/health?sentinel HTTP/1.1\" 200"), lines);
            StatsSnapshot after = server.awaitStats(s -> refused(s) > refusedBefore);
            assertEquals(refusedBefore + 1, refused(after), after::toString);
        }
    }

    private static long refused(StatsSnapshot s) {
        return s.protocolErrors().getOrDefault(ProtocolError.BAD_REQUEST_TARGET, 0L);
    }
}
