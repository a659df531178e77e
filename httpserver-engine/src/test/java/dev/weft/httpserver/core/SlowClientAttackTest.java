package dev.weft.httpserver.core;

import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Slow-client attacks against a small connection limit, with the default rates, grace period and low-resources
 * settings: twice {@code maxConnections} slow clients — Debian's {@code slowhttptest} and as many of the test's
 * own raw-socket clients (one byte every 2 s) — and meanwhile an ordinary client (the JDK's HttpClient, a new
 * connection each time) asks 20 times. Every one of its tries must be answered, and every slow connection cut
 * (when is measured by the handlers, whose read or write fails when the server cuts; a generous guard bounds
 * it). The latencies and cut times are printed.
 */
@Timeout(90)
class SlowClientAttackTest {

    private static final int MAX_CONNECTIONS = 50;
    private static final Duration PAUSE = Duration.ofSeconds(2);
    private static final ServerConfig CONFIG = ServerConfig.builder().maxConnections(MAX_CONNECTIONS).build();
    /**
     * Every slow connection must be cut, at the latest this long after its handler started: a guard well beyond
     * the grace period (the cut times are printed; on the 2-core box they stay within the grace period plus the
     * sweeper's quarter second).
     */
    private static final Duration CUT_WITHIN = CONFIG.dataRateGracePeriod().plusSeconds(15);
    private static final int TRIES = 20;

    private final Queue<Long> cutMillis = new ConcurrentLinkedQueue<>();
    private TestServer server;
    private ExternalTools.Running slowhttptest;
    private final List<Thread> attackers = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        attackers.forEach(Thread::interrupt);
        for (Thread t : attackers) {
            t.join(Duration.ofSeconds(10));
        }
        if (slowhttptest != null) {
            slowhttptest.kill();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void slowBodiesCannotLockAnOrdinaryClientOut() throws Exception {
        Path slowhttptestBin = ExternalTools.require("slowhttptest");
        server = TestServer.builder().config(CONFIG).handle("/upload", exchange -> {
            long start = System.nanoTime();
            try {
                TestServer.drain(exchange.getRequestBody());
            } catch (IOException e) {
                cutMillis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                throw e;
            }
            TestServer.respond(exchange, 200, "uploaded");
        }).handle("/", TestServer.echoHandler()).start();
        Path csv = Files.createTempFile("slowhttptest-body", "");
        slowhttptest = ExternalTools.start(List.of(slowhttptestBin.toString(), "-B", "-c", "" + MAX_CONNECTIONS,
                "-r", "200", "-i", "2", "-x", "1", "-s", "65536", "-t", "POST", "-l", "40", "-g", "-o",
                csv.toString(), "-u", server.uri("/upload").toString()), null);
        attack(client -> {
            client.send("POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: 65536\r\n\r\n");
            return () -> client.send("x");
        }, 0);

        List<Long> latencies = ordinaryClientTries();
        awaitCutsOfEverySlowConnection();
        report("slow body", latencies);
        assertSlowhttptestSawItsConnectionsClosed(csv);
    }

    @Test
    void slowReadersCannotLockAnOrdinaryClientOut() throws Exception {
        Path slowhttptestBin = ExternalTools.require("slowhttptest");
        byte[] mebibyte = new byte[1024 * 1024];
        HttpHandler large = exchange -> {
            long start = System.nanoTime();
            exchange.sendResponseHeaders(200, 64L * mebibyte.length);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < 64; i++) {
                    out.write(mebibyte);
                }
            } catch (IOException e) {
                cutMillis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                throw e;
            }
        };
        server = TestServer.builder().config(CONFIG).handle("/large", large).handle("/", TestServer.echoHandler())
                .start();
        Path csv = Files.createTempFile("slowhttptest-read", "");
        slowhttptest = ExternalTools.start(List.of(slowhttptestBin.toString(), "-X", "-c", "" + MAX_CONNECTIONS,
                "-r", "200", "-k", "1", "-n", "2", "-z", "1", "-w", "512", "-y", "1024", "-l", "12", "-g", "-o",
                csv.toString(), "-u", server.uri("/large").toString()), null);
        attack(client -> {
            client.send("GET /large HTTP/1.1\r\nHost: localhost\r\n\r\n");
            InputStream in = client.socket().getInputStream();
            // One byte read every 2 s; the empty line written each time (allowed before a request, never read
            // while the response is being written) finds out when the server has closed the connection.
            return () -> {
                if (in.read() < 0) {
                    throw new IOException("closed");
                }
                client.send("\r\n");
            };
        }, 4096);

        List<Long> latencies = ordinaryClientTries();
        awaitCutsOfEverySlowConnection();
        report("slow read", latencies);
        // Its record says little here: a socket the server has closed counts as open until slowhttptest has read,
        // a byte every 2 s, what the buffers still held (the whole 503 of a refused one, or up to megabytes).
        slowhttptest.kill();
        printSlowhttptestRecord(csv, slowhttptest.await(Duration.ofSeconds(30)));
    }

    /** One step of a slow client: a byte sent or read; throws once the server has cut the connection. */
    private interface Step {
        void run() throws IOException;
    }

    /**
     * Starts {@link #MAX_CONNECTIONS} slow clients: each connects (with this receive buffer, 0 for the
     * default), lets {@code start} send its request, then runs the step it returns every 2 s until the
     * connection fails.
     */
    private void attack(ThrowingStart start, int receiveBuffer) {
        for (int i = 0; i < MAX_CONNECTIONS; i++) {
            attackers.add(Thread.ofVirtual().name("attacker-" + i).start(() -> {
                try (RawHttpClient client = RawHttpClient.connect(server.port(), Duration.ofSeconds(30),
                        receiveBuffer)) {
                    Step step = start.apply(client);
                    while (true) {
                        Thread.sleep(PAUSE); // the attack's pace
                        step.run();
                    }
                } catch (IOException cut) {
                    // cut, refused or reset: this slow client is done
                } catch (InterruptedException stopped) {
                    // test over
                }
            }));
        }
    }

    private interface ThrowingStart {
        Step apply(RawHttpClient client) throws IOException;
    }

    /**
     * Waits until the attack fills the server, then lets it go on for 1.5 s, so that its connections have been
     * slow for over a second (what makes a connection a victim); then has an ordinary client ask {@link #TRIES}
     * times, a new connection each time; every answer must be {@code 200}. Returns the latencies in milliseconds.
     */
    private List<Long> ordinaryClientTries() throws Exception {
        Await.until("the attack to fill the server", () -> server.stats().connectionsRejected() > 0);
        Thread.sleep(1500); // the attack's pace: it goes on; its connections are now slow for over a second
        List<Long> latencies = new ArrayList<>();
        for (int t = 0; t < TRIES; t++) {
            int i = t;
            try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(10)).build()) {
                long start = System.nanoTime();
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(server.uri("/ordinary/" + i))
                        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
                latencies.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                assertEquals(200, response.statusCode(), () -> "try " + i + ": " + response.body());
            }
            Thread.sleep(100); // the ordinary client's pace
        }
        return latencies;
    }

    /** Waits until every slow connection is gone; every one must have been cut within {@link #CUT_WITHIN}. */
    private void awaitCutsOfEverySlowConnection() {
        StatsSnapshot s = Await.value("every slow connection closed", server::stats,
                x -> x.connectionsActive() == 0);
        assertTrue(cutMillis.size() >= MAX_CONNECTIONS, "only " + cutMillis.size() + " cuts; " + s);
        long slowest = cutMillis.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertTrue(slowest <= CUT_WITHIN.toMillis(), "a slow connection lived " + slowest + " ms; " + s);
    }

    private void report(String attack, List<Long> latencies) {
        List<Long> sorted = latencies.stream().sorted().toList();
        List<Long> cuts = cutMillis.stream().sorted().toList();
        StatsSnapshot s = server.stats();
        System.out.printf("%s attack, maxConnections %d: ordinary client answered %d of %d, latency ms min %d"
                        + " median %d max %d (in order: %s); %d slow connections cut after ms min %d median %d max %d; %s%n",
                attack, MAX_CONNECTIONS, latencies.size(), TRIES, sorted.getFirst(), sorted.get(sorted.size() / 2),
                sorted.getLast(), latencies, cuts.size(), cuts.getFirst(), cuts.get(cuts.size() / 2), cuts.getLast(),
                "lowResourcesCloses " + s.lowResourcesCloses() + ", rejected " + s.connectionsRejected()
                        + ", errors " + s.protocolErrors());
    }

    /**
     * slowhttptest's own view: it ends early, on its own, once none of its connections is left open, and that
     * must happen by {@link #CUT_WITHIN} (and its first second, spent connecting).
     */
    private void assertSlowhttptestSawItsConnectionsClosed(Path prefix) throws IOException {
        ExternalTools.Result result = slowhttptest.await(Duration.ofSeconds(60));
        printSlowhttptestRecord(prefix, result);
        assertTrue(result.stdout().contains("No open connections left"), result::describe);
        Matcher ended = Pattern.compile("Test ended on (\\d+)").matcher(result.stdout());
        assertTrue(ended.find(), result::describe);
        int endedOnSecond = Integer.parseInt(ended.group(1));
        assertTrue(endedOnSecond <= CUT_WITHIN.toSeconds() + 1, result::describe);
    }

    /** Prints slowhttptest's record, second by second: closed, pending and connected sockets. */
    private static void printSlowhttptestRecord(Path prefix, ExternalTools.Result result) throws IOException {
        Path csv = Path.of(prefix + ".csv");
        assertTrue(Files.exists(csv), result::describe);
        System.out.println("slowhttptest, second by second:\n"
                + String.join("\n", Files.readAllLines(csv, StandardCharsets.US_ASCII)));
        Files.deleteIfExists(csv);
        Files.deleteIfExists(Path.of(prefix + ".html"));
        Files.deleteIfExists(prefix);
    }
}
