package dev.weft.httpserver.http2;

import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.ConfusingPaths;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * HTTP/2's {@code :path} follows the rules HTTP/1.1's origin-form does: the same table, the same contexts, the
 * same {@code getRequestURI()}, the same refusals (a {@code 400}, the connection going on).
 */
@Timeout(30)
class Http2RequestPathTest {

    private static TestServer server;

    @BeforeAll
    static void start() throws IOException {
        server = TestServer.start();
        server.server().removeContext("/");
        ConfusingPaths.createContexts(server.server());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static List<ConfusingPaths.Case> originForm() {
        return ConfusingPaths.originForm();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("originForm")
    void routingAndRequestUriAgreeOnThePathAsSent(ConfusingPaths.Case c) throws IOException {
        try (FrameClient client = FrameClient.connect(server.port())) {
            client.get(1, c.target());
            FrameClient.Response r = client.response(1);

            assertNull(r.reset(), r::toString);
            assertEquals(c.status(), r.status(), r::toString);
            if (c.report() != null) {
                assertEquals(c.report(), r.body());
            }
            client.get(3, "/actuator/sentinel");
            assertEquals(200, client.response(3).status(), "the connection goes on");
        }
    }

    @Test
    void refusedPathsAreCountedAsBadTargets() throws IOException {
        long before = refused(server.stats());
        try (FrameClient client = FrameClient.connect(server.port())) {
            client.get(1, "/a/%2e%2e/actuator");
            FrameClient.Response r = client.response(1);
            assertEquals(400, r.status());
            assertEquals("400 dot-segment in request path\n", r.body());
        }
        StatsSnapshot after = server.awaitStats(s -> refused(s) > before);
        assertEquals(before + 1, refused(after), after::toString);
    }

    @Test
    void literalBackslashIsAMalformedPath() throws IOException {
        try (FrameClient client = FrameClient.connect(server.port())) {
            client.get(1, "/a\\..\\actuator");
            assertEquals(ErrorCode.PROTOCOL_ERROR, client.response(1).reset());
        }
    }

    private static long refused(StatsSnapshot s) {
        return s.protocolErrors().getOrDefault(ProtocolError.BAD_REQUEST_TARGET, 0L);
    }
}
