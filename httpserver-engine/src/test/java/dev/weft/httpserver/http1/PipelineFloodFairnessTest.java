package dev.weft.httpserver.http1;

import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.PipeliningClient;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client that keeps its connection's input full of pipelined requests never makes the connection's thread
 * wait for a read, and virtual threads are not preempted: without a bound on the requests a connection serves
 * back to back, a few such clients (one per carrier thread) hold every carrier and nobody else is answered.
 */
@Timeout(60)
class PipelineFloodFairnessTest {

    private static final Duration PROBE_WAIT = Duration.ofSeconds(5);

    private static final byte[] BATCH = "GET /flood HTTP/1.1\r\nHost: a\r\n\r\n".repeat(512)
            .getBytes(StandardCharsets.US_ASCII);

    private final List<PipeliningClient> floods = new ArrayList<>();
    private TestServer server;

    @AfterEach
    void stop() {
        floods.forEach(PipeliningClient::close);
        if (server != null) {
            server.close();
        }
    }

    @Test
    void clientsThatNeverStopPipeliningDoNotKeepOtherConnectionsWaiting() throws Exception {
        server = TestServer.builder().handle("/", exchange -> TestServer.respond(exchange, 200, "ok")).start();
        int carriers = Runtime.getRuntime().availableProcessors();
        for (int i = 0; i <= carriers; i++) {
            floods.add(new PipeliningClient(server.port(), BATCH));
        }
        Await.until("every flooding client to be answered", () -> floods.stream().allMatch(f -> f.received() > 0));

        for (int probe = 0; probe < 5; probe++) {
            try (RawHttpClient client = RawHttpClient.connect(server.port(), PROBE_WAIT)) {
                RawHttpClient.Response response = client.send(RawHttpClient.get("/probe")).readResponse();

                assertEquals(200, response.status());
            }
        }
        assertTrue(floods.stream().allMatch(PipeliningClient::isRunning), "every flooding client kept on while the probes ran");
    }
}
