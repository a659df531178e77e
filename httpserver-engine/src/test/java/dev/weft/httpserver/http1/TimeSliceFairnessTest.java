package dev.weft.httpserver.http1;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.config.ThreadsConfig;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.PipeliningClient;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Virtual threads are never preempted, so a connection that always has its next request at hand would keep its
 * carrier for as long as it likes. Connections give way by time, not by count: after a time slice of running
 * each lets the others waiting for a carrier go first, so when requests cost milliseconds a newcomer is
 * answered after a few of the busy connections' requests, not after hundreds of each.
 */
@Timeout(60)
class TimeSliceFairnessTest {

    /** CPU each heavy request burns. */
    private static final Duration WORK = Duration.ofMillis(2);
    /**
     * Heavy requests a busy connection may serve between a probe's arrival and its answer. Giving way after each
     * heavy request leaves a handful at most; a turn of 256 requests (the count it replaced) leaves hundreds.
     */
    private static final int MOST_SERVED_WHILE_PROBE_WAITS = 30;

    /** Where {@link #burn} leaves its result, so that the computation is not optimised away. */
    private static volatile long sink;

    private final List<PipeliningClient> busy = new ArrayList<>();
    private TestServer server;

    @AfterEach
    void stop() {
        busy.forEach(PipeliningClient::close);
        if (server != null) {
            server.close();
        }
    }

    @Test
    void connectionsWithHeavyRequestsAlwaysAtHandDoNotMakeANewcomerWait() throws Exception {
        int carriers = Runtime.getRuntime().availableProcessors();
        AtomicLongArray served = new AtomicLongArray(carriers + 1);
        server = TestServer.builder()
                .config(ServerConfig.builder().threads(ThreadsConfig.defaults()).build())
                .handle("/work", exchange -> {
                    burn(WORK);
                    served.incrementAndGet(client(exchange.getRequestURI()));
                    TestServer.respond(exchange, 200, "done");
                })
                .handle("/probe", exchange -> TestServer.respond(exchange, 200, "probe"))
                .start();
        for (int i = 0; i < served.length(); i++) {
            busy.add(new PipeliningClient(server.port(), ("GET /work?c=" + i + " HTTP/1.1\r\nHost: a\r\n\r\n")
                    .repeat(64).getBytes(StandardCharsets.US_ASCII)));
        }
        Await.until("every busy connection to be served", () -> {
            for (int i = 0; i < served.length(); i++) {
                if (served.get(i) < 10) {
                    return false;
                }
            }
            return true;
        });

        for (int probe = 0; probe < 5; probe++) {
            long[] before = snapshot(served);
            try (RawHttpClient client = RawHttpClient.connect(server.port(), Duration.ofSeconds(30))) {
                RawHttpClient.Response response = client.send(RawHttpClient.get("/probe")).readResponse();
                assertEquals(200, response.status());
            }
            long[] after = snapshot(served);
            for (int i = 0; i < before.length; i++) {
                long during = after[i] - before[i];
                assertTrue(during <= MOST_SERVED_WHILE_PROBE_WAITS, "busy connection " + i + " was served " + during
                        + " heavy requests while the probe waited");
            }
        }
        assertTrue(busy.stream().allMatch(PipeliningClient::isRunning), "every busy connection kept on during the probes");
    }

    private static long[] snapshot(AtomicLongArray counts) {
        long[] copy = new long[counts.length()];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = counts.get(i);
        }
        return copy;
    }

    private static int client(URI uri) {
        return Integer.parseInt(uri.getQuery().substring("c=".length()));
    }

    /** Keeps the CPU busy for {@code d}, as a handler that computes does. */
    private static void burn(Duration d) {
        long end = System.nanoTime() + d.toNanos();
        long x = 0;
        while (System.nanoTime() < end) {
            x += x * 31 + 7;
        }
        sink = x;
    }
}
