package dev.weft.httpserver.http1;

import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.RawHttpClient.Response;
import dev.weft.httpserver.testing.TestServer;
import dev.weft.httpserver.testing.Trickle;
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
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code minRequestDataRate}, {@code minResponseDataRate} and {@code dataRateGracePeriod} over HTTP/1.1, with
 * a raw-socket slow client (one byte every 200 ms) and the JDK's HttpClient as the fast one. The grace period
 * is 1 s so that the tests are quick; the per-read timeouts are long, so that only the rates can cut.
 */
@Timeout(60)
class MinimumDataRateTest {

    private static final Duration GRACE = Duration.ofSeconds(1);
    private static final Duration PAUSE = Duration.ofMillis(200);
    private static final String HOST = "Host: localhost\r\n";
    /**
     * Loopback sockets take a few megabytes into their buffers before a write blocks, and those count as moved:
     * a response rate high enough that a client that stops reading is cut within seconds all the same.
     */
    private static final long MEGABYTE_PER_SECOND = 1024 * 1024;

    private TestServer server;

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void bodySentOneByteAtATimeGets408AfterTheGracePeriodAndIsCounted() throws Exception {
        CountDownLatch readFailed = new CountDownLatch(1);
        AtomicReference<IOException> failure = new AtomicReference<>();
        server = TestServer.builder().config(config().build()).handle("/", exchange -> {
            try {
                TestServer.drain(exchange.getRequestBody());
            } catch (IOException e) {
                failure.set(e);
                readFailed.countDown();
                throw e;
            }
            TestServer.respond(exchange, 200, "read the whole body");
        }).start();
        try (RawHttpClient client = server.connect(); Trickle body = trickleBody(client, "Content-Length: 1000\r\n")) {
            long start = System.nanoTime();
            Response response = client.readResponse();
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(408, response.status(), response::toString);
            assertTrue(response.hasConnectionToken("close"), response::toString);
            assertTrue(client.serverClosed(), "connection still open after the 408");
            Await.latch("the handler's read to fail", readFailed);
            assertInstanceOf(IOException.class, failure.get());
            assertTrue(elapsedMillis >= GRACE.toMillis(), "cut after only " + elapsedMillis + " ms");
            assertTrue(body.sent() < 1000, "the whole body arrived: " + body.sent());
        }
        StatsSnapshot stats = server.awaitStats(s -> s.timeoutCloses() >= 1);
        assertEquals(1L, stats.protocolErrors().get(ProtocolError.REQUEST_DATA_RATE), stats::toString);
        assertNull(stats.protocolErrors().get(ProtocolError.BODY_TIMEOUT), stats::toString);
        assertEquals(1, stats.timeoutCloses(), stats::toString);
    }

    @Test
    void chunkedBodySentOneByteAtATimeIsCutToo() throws Exception {
        server = TestServer.start(config().build());
        try (RawHttpClient client = server.connect();
             Trickle body = trickleBody(client, "Transfer-Encoding: chunked\r\n")) {
            client.send("3e8\r\n"); // one chunk of 1000 bytes, trickled
            Response response = client.readResponse();
            assertEquals(408, response.status(), response::toString);
            assertTrue(client.serverClosed(), "connection still open after the 408");
        }
        StatsSnapshot stats = server.awaitStats(
                s -> s.protocolErrors().containsKey(ProtocolError.REQUEST_DATA_RATE));
        assertEquals(1L, stats.protocolErrors().get(ProtocolError.REQUEST_DATA_RATE), stats::toString);
    }

    @Test
    void aHandlerThatReadsSlowlyDoesNotMakeAFastClientSlow() throws Exception {
        // The body is all there at once; the handler takes its time: that time is not the client's.
        server = TestServer.builder().config(config().minRequestDataRate(10 * MEGABYTE_PER_SECOND).build())
                .handle("/", exchange -> {
                    InputStream in = exchange.getRequestBody();
                    byte[] buf = new byte[8192];
                    long total = 0;
                    try {
                        for (int n; (n = in.read(buf)) >= 0; ) {
                            total += n;
                            Thread.sleep(100); // the handler's pace
                        }
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                    TestServer.respond(exchange, 200, Long.toString(total));
                }).start();
        byte[] body = new byte[20 * 8192]; // 20 reads, 2 s of the handler's pauses
        HttpResponse<String> response = client().send(HttpRequest.newBuilder(server.uri("/slow-handler"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response::body);
        assertEquals(Integer.toString(body.length), response.body());
        assertFalse(server.stats().protocolErrors().containsKey(ProtocolError.REQUEST_DATA_RATE));
    }

    @Test
    void aFastLargeUploadIsNotCut() throws Exception {
        server = TestServer.start(config().minRequestDataRate(MEGABYTE_PER_SECOND).build());
        byte[] body = new byte[64 * 1024 * 1024];
        HttpResponse<String> response = client().send(HttpRequest.newBuilder(server.uri("/upload"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response::body);
        assertTrue(response.body().contains("body-length: " + body.length), response::body);
        assertFalse(server.stats().protocolErrors().containsKey(ProtocolError.REQUEST_DATA_RATE));
    }

    @Test
    void aClientThatStopsReadingALargeResponseIsCutAfterTheGracePeriodAndCounted() throws Exception {
        CountDownLatch writeFailed = new CountDownLatch(1);
        server = TestServer.builder().config(config().minResponseDataRate(MEGABYTE_PER_SECOND).build())
                .handle("/", exchange -> {
                    exchange.sendResponseHeaders(200, 0);
                    byte[] piece = new byte[64 * 1024];
                    try (OutputStream out = exchange.getResponseBody()) {
                        for (int i = 0; i < 16 * 1024; i++) { // up to a gigabyte
                            out.write(piece);
                        }
                    } catch (IOException e) {
                        writeFailed.countDown();
                        throw e;
                    }
                }).start();
        try (RawHttpClient client = RawHttpClient.connect(server.port(), Duration.ofSeconds(20), 4096)) {
            long start = System.nanoTime();
            client.send("GET /large HTTP/1.1\r\n" + HOST + "\r\n");
            Await.latch("the handler's write to be cut", writeFailed);
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(elapsedMillis >= GRACE.toMillis(), "cut after only " + elapsedMillis + " ms");
        }
        StatsSnapshot stats = server.awaitStats(s -> s.timeoutCloses() >= 1);
        assertEquals(1L, stats.protocolErrors().get(ProtocolError.RESPONSE_DATA_RATE), stats::toString);
        assertNull(stats.protocolErrors().get(ProtocolError.WRITE_TIMEOUT), stats::toString);
        assertNull(stats.protocolErrors().get(ProtocolError.RESPONSE_ABORTED), stats::toString);
        assertEquals(1, stats.timeoutCloses(), stats::toString);
    }

    @Test
    void aFastLargeDownloadIsNotCut() throws Exception {
        byte[] body = new byte[64 * 1024 * 1024];
        server = TestServer.builder().config(config().minResponseDataRate(MEGABYTE_PER_SECOND).build())
                .handle("/", exchange -> TestServer.sendFixed(exchange, 200, body)).start();
        HttpResponse<byte[]> response = client().send(HttpRequest.newBuilder(server.uri("/download")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, response.statusCode());
        assertEquals(body.length, response.body().length);
        assertFalse(server.stats().protocolErrors().containsKey(ProtocolError.RESPONSE_DATA_RATE));
    }

    @Test
    void oneHugeWriteToAClientReadingAboveTheMinimumRateIsNotCut() throws Exception {
        // Written to the socket in one call, this response would show no progress until all of it had gone:
        // a client reading at four times the minimum rate would look stalled. In pieces it does not.
        byte[] body = new byte[16 * 1024 * 1024];
        server = TestServer.builder().config(config().minResponseDataRate(MEGABYTE_PER_SECOND).build())
                .handle("/", exchange -> TestServer.sendFixed(exchange, 200, body)).start();
        try (RawHttpClient client = server.connect()) {
            client.send("GET /huge HTTP/1.1\r\n" + HOST + "Connection: close\r\n\r\n");
            InputStream in = client.socket().getInputStream();
            byte[] buf = new byte[64 * 1024];
            long total = 0;
            long unpaced = 0;
            for (int n; (n = in.read(buf)) >= 0; ) {
                total += n;
                unpaced += n;
                if (unpaced >= buf.length) {
                    unpaced -= buf.length;
                    Thread.sleep(16); // the client's pace: about 4 MB/s, 64 KiB per 16 ms
                }
            }
            assertTrue(total > body.length, "response cut after " + total + " bytes");
        }
        assertFalse(server.stats().protocolErrors().containsKey(ProtocolError.RESPONSE_DATA_RATE));
    }

    @Test
    void aResponseTheHandlerTricklesIsNotTheClientsFault() throws Exception {
        // Nothing to send is not waiting on the client: 2 s of a few bytes every 100 ms, twice the grace period.
        server = TestServer.builder().config(config().minResponseDataRate(MEGABYTE_PER_SECOND).build())
                .handle("/", exchange -> {
                    exchange.sendResponseHeaders(200, 0);
                    try (OutputStream out = exchange.getResponseBody()) {
                        for (int i = 0; i < 20; i++) {
                            out.write(("event " + i + "\n").getBytes(StandardCharsets.US_ASCII));
                            out.flush();
                            Thread.sleep(100); // the handler's pace
                        }
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }).start();
        HttpResponse<String> response = client().send(HttpRequest.newBuilder(server.uri("/events")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        assertTrue(response.body().endsWith("event 19\n"), response::body);
        assertFalse(server.stats().protocolErrors().containsKey(ProtocolError.RESPONSE_DATA_RATE));
    }

    @Test
    void readsOfAnUpgradedConnectionAreNotPacedByTheBodyRate() throws Exception {
        HttpHandler upgrade = exchange -> {
            exchange.getResponseHeaders().set("Upgrade", "trickle");
            exchange.getResponseHeaders().set("Connection", "Upgrade");
            exchange.sendResponseHeaders(101, 0);
            InputStream in = exchange.getRequestBody();
            int received = 0;
            while (received < 10 && in.read() >= 0) {
                received++;
            }
            OutputStream out = exchange.getResponseBody();
            out.write(("received " + received + "\n").getBytes(StandardCharsets.US_ASCII));
            exchange.close();
        };
        server = TestServer.builder().config(config().build()).handle("/", upgrade).start();
        try (RawHttpClient client = server.connect()) {
            client.send("GET /raw HTTP/1.1\r\n" + HOST + "Upgrade: trickle\r\nConnection: Upgrade\r\n\r\n");
            assertEquals(101, client.readResponse().status());
            try (Trickle bytes = Trickle.start(client, 10, PAUSE)) {
                // 2 s at 5 bytes/s, twice the grace period: a body would have been cut.
                assertEquals("received 10\n", new String(client.readUntilClose(), StandardCharsets.US_ASCII));
            }
        }
        assertFalse(server.stats().protocolErrors().containsKey(ProtocolError.REQUEST_DATA_RATE));
    }

    private static Trickle trickleBody(RawHttpClient client, String framing) throws IOException {
        client.send("POST /upload HTTP/1.1\r\n" + HOST + framing + "\r\n");
        return Trickle.start(client, 1000, PAUSE);
    }

    private static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    private static ServerConfig.Builder config() {
        Duration longTimeout = Duration.ofSeconds(30);
        return ServerConfig.builder().dataRateGracePeriod(GRACE).bodyReadTimeout(longTimeout)
                .writeTimeout(longTimeout).headerReadTimeout(longTimeout).idleTimeout(longTimeout);
    }
}
