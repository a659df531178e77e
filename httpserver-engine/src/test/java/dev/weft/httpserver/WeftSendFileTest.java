package dev.weft.httpserver;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Weft#sendFile} from plain JDK-API handlers on cleartext HTTP/1.1: a region of a file takes its place among
 * the bytes written around it in every framing (fixed length, chunked, HTTP/1.0 close-delimited), HEAD drops it, it
 * never moves the channel's position, and its errors are the handler's (too many bytes, headers not sent, a file
 * shorter than the region) rather than the client's.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftSendFileTest {

    private static final int FILE_SIZE = 512 * 1024;
    private static final long REGION_START = 100_001;
    private static final int REGION_LENGTH = 300_000;
    private static final byte[] HEAD = "head:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TAIL = ":tail".getBytes(StandardCharsets.US_ASCII);

    private static Path file;
    private static byte[] content;

    private TestServer server;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicLong positionAfter = new AtomicLong(-1);
    private final CountDownLatch handled = new CountDownLatch(1);

    @BeforeAll
    static void writeFile() throws IOException {
        content = new byte[FILE_SIZE];
        new Random(7).nextBytes(content);
        file = Files.createTempFile("weft-send-file", ".bin");
        Files.write(file, content);
    }

    @AfterAll
    static void deleteFile() throws IOException {
        Files.deleteIfExists(file);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** A handler step that may throw. */
    @FunctionalInterface
    private interface Respond {
        void respond(HttpExchange exchange, FileChannel ch) throws IOException;
    }

    /** Starts a server whose handler opens the file, runs {@code respond}, and records how it ended. */
    private void serve(Respond respond) throws IOException {
        server = TestServer.builder().handle("/", exchange -> {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                respond.respond(exchange, ch);
                positionAfter.set(ch.position());
            } catch (IOException | RuntimeException e) {
                failure.set(e);
                throw e;
            } finally {
                exchange.close();
                handled.countDown();
            }
        }).start();
    }

    private static byte[] region() {
        return Arrays.copyOfRange(content, (int) REGION_START, (int) REGION_START + REGION_LENGTH);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @Test
    void aRegionBetweenWrittenBytesKeepsItsPlaceInAFixedLengthBody() throws Exception {
        serve((exchange, ch) -> {
            exchange.sendResponseHeaders(200, HEAD.length + REGION_LENGTH + TAIL.length);
            OutputStream out = exchange.getResponseBody();
            out.write(HEAD);
            Weft.sendFile(exchange, ch, REGION_START, REGION_LENGTH);
            out.write(TAIL);
        });
        StatsSnapshot before = server.stats();
        try (HttpClient client = client()) {
            HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(server.uri("/")).build(),
                    HttpResponse.BodyHandlers.ofByteArray());

            assertEquals(200, response.statusCode());
            assertArrayEquals(concat(HEAD, region(), TAIL), response.body());
        }
        Await.latch("the handler to return", handled);
        assertNull(failure.get());
        assertEquals(0, positionAfter.get(), "the channel's position moved");
        server.awaitStats(s -> s.bytesSentZeroCopy() - before.bytesSentZeroCopy() >= REGION_LENGTH * 99L / 100);
    }

    @Test
    void regionsOfAStreamedBodyBecomeChunksOfTheirOwn() throws Exception {
        serve((exchange, ch) -> {
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            out.write(HEAD);
            Weft.sendFile(exchange, ch, REGION_START, REGION_LENGTH);
            Weft.sendFile(exchange, ch, 0, 0); // nothing: not the last chunk
            Weft.sendFile(exchange, ch, 7, 10); // small: joins what is buffered
            out.write(TAIL);
        });
        try (RawHttpClient client = server.connect()) {
            client.send(RawHttpClient.get("/"));
            RawHttpClient.Response response = client.readResponse();

            assertEquals(200, response.status());
            assertEquals("chunked", response.header("Transfer-Encoding"));
            assertArrayEquals(concat(HEAD, region(), Arrays.copyOfRange(content, 7, 17), TAIL), response.body());
        }
    }

    @Test
    void anHttp10ClientGetsTheRegionUntilTheConnectionCloses() throws Exception {
        serve((exchange, ch) -> {
            exchange.sendResponseHeaders(200, 0);
            Weft.sendFile(exchange, ch, REGION_START, REGION_LENGTH);
        });
        try (RawHttpClient client = server.connect()) {
            client.send("GET / HTTP/1.0\r\n\r\n");
            List<RawHttpClient.Response> responses = client.readResponsesUntilClose();

            assertEquals(1, responses.size());
            assertNull(responses.get(0).header("Content-Length"));
            assertArrayEquals(region(), responses.get(0).body());
        }
    }

    @Test
    void headSendsTheLengthAndDropsTheRegion() throws Exception {
        serve((exchange, ch) -> {
            exchange.sendResponseHeaders(200, REGION_LENGTH);
            Weft.sendFile(exchange, ch, REGION_START, REGION_LENGTH);
        });
        try (RawHttpClient client = server.connect()) {
            client.send("HEAD / HTTP/1.1\r\nHost: localhost\r\n\r\n" + RawHttpClient.get("/"));
            RawHttpClient.Response head = client.readHeadResponse();
            RawHttpClient.Response get = client.readResponse();

            assertEquals(String.valueOf(REGION_LENGTH), head.header("Content-Length"));
            assertEquals(0, head.body().length);
            assertArrayEquals(region(), get.body(), "the GET after the HEAD on the same connection");
        }
    }

    @Test
    void aRegionLongerThanTheLengthLeftFailsBeforeAnyOfItIsSent() throws Exception {
        serve((exchange, ch) -> {
            exchange.sendResponseHeaders(200, 10);
            Weft.sendFile(exchange, ch, 0, 11);
        });
        try (RawHttpClient client = server.connect()) {
            client.send(RawHttpClient.get("/"));
            String received = new String(client.readUntilClose(), StandardCharsets.ISO_8859_1);
            assertTrue(received.startsWith("HTTP/1.1 200 ") && received.endsWith("\r\n\r\n"),
                    "the head alone, then the end of the connection: " + received);
        }
        Await.latch("the handler to return", handled);
        IOException e = assertInstanceOf(IOException.class, failure.get());
        assertTrue(e.getMessage().contains("too many bytes"), e::toString);
        assertEquals(0, server.stats().bytesSentZeroCopy());
    }

    @Test
    void sendingBeforeTheHeadersFailsAndTheExchangeCanStillAnswer() throws Exception {
        AtomicReference<IOException> early = new AtomicReference<>();
        serve((exchange, ch) -> {
            early.set(assertThrows(IOException.class, () -> Weft.sendFile(exchange, ch, 0, 5)));
            exchange.sendResponseHeaders(200, 5);
            Weft.sendFile(exchange, ch, 0, 5);
        });
        try (HttpClient client = client()) {
            HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(server.uri("/")).build(),
                    HttpResponse.BodyHandlers.ofByteArray());

            assertArrayEquals(Arrays.copyOf(content, 5), response.body());
        }
        assertTrue(early.get().getMessage().contains("headers not sent"), early.get()::toString);
    }

    @Test
    void aFileShorterThanItsRegionBreaksTheResponseOffAsTheHandlersFaultNotTheClients() throws Exception {
        long claimed = FILE_SIZE + 1000;
        serve((exchange, ch) -> {
            exchange.sendResponseHeaders(200, claimed);
            Weft.sendFile(exchange, ch, 0, claimed);
        });
        try (RawHttpClient client = RawHttpClient.connect(server.port(), Duration.ofSeconds(20))) {
            client.send(RawHttpClient.get("/"));
            byte[] received = client.readUntilClose();
            assertTrue(received.length < claimed, "more than the file was sent: " + received.length);
        }
        Await.latch("the handler to return", handled);
        assertInstanceOf(EOFException.class, failure.get());
        StatsSnapshot stats = server.awaitStats(s -> s.handlerExceptions() == 1 && s.connectionsActive() == 0);
        assertTrue(stats.protocolErrors().isEmpty(), "not a client event: " + stats);
    }
}
