package dev.weft.httpserver.http1;

import com.sun.net.httpserver.Headers;
import dev.weft.httpserver.ExchangeAttributes;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.RawHttpClient.Response;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Chunked request bodies (with trailers) and chunked responses. */
@Timeout(10)
class ChunkedBodyTest {

    private static final String HOST = "Host: localhost\r\n";
    private static final int[] RESPONSE_PIECES = {1, 10, 100, 5000, 70_000, 3};

    private static TestServer server;

    @BeforeAll
    static void startServer() throws IOException {
        server = TestServer.builder()
                .handle("/echo", TestServer.bodyEchoHandler())
                .handle("/trailers", exchange -> {
                    long length = TestServer.drain(exchange.getRequestBody());
                    Object attribute = exchange.getAttribute(ExchangeAttributes.REQUEST_TRAILERS);
                    StringBuilder s = new StringBuilder("body-length: " + length + "\n");
                    if (attribute instanceof Headers trailers) {
                        s.append("trailers: ").append(trailers.size()).append('\n');
                        Map<String, List<String>> sorted = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                        sorted.putAll(trailers);
                        sorted.forEach((name, values) -> values.forEach(v -> s.append("trailer ")
                                .append(name.toLowerCase(Locale.ROOT)).append(": ").append(v).append('\n')));
                    } else {
                        s.append("attribute: ").append(attribute).append('\n');
                    }
                    TestServer.respond(exchange, 200, s.toString());
                })
                .handle("/chunked-response", exchange -> {
                    TestServer.drain(exchange.getRequestBody());
                    exchange.sendResponseHeaders(200, 0);
                    try (OutputStream out = exchange.getResponseBody()) {
                        for (int size : RESPONSE_PIECES) {
                            out.write(expectedResponseBody(), offset(size), size);
                            out.flush();
                        }
                    }
                })
                .handle("/empty-chunked-response", exchange -> {
                    exchange.sendResponseHeaders(200, 0);
                    exchange.close();
                })
                .start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1, 15, 16, 4096, 100_000})
    void chunkedRequestBodyIsDecodedExactly(int size) throws IOException {
        byte[] body = randomBytes(size, size);
        try (RawHttpClient client = server.connect()) {
            client.send(("POST /echo HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            client.send(chunked(body, new Random(size)));
            Response response = client.readResponse();
            assertEquals(200, response.status(), response::toString);
            assertArrayEquals(body, response.body());
            // the connection is still in sync for a next request
            Response next = client.send("POST /echo HTTP/1.1\r\n" + HOST + "Content-Length: 4\r\n\r\nnext")
                    .readResponse();
            assertEquals("next", next.bodyText());
        }
    }

    @Test
    void chunkedRequestBodyFromTheJdkClientIsDecoded() throws Exception {
        byte[] body = randomBytes(50_000, 7);
        try (HttpClient client = jdkClient()) {
            HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(server.uri("/echo"))
                    .timeout(Duration.ofSeconds(5))
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
                    .build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, response.statusCode());
            assertArrayEquals(body, response.body());
        }
    }

    @Test
    void requestTrailersAreVisibleThroughTheExchangeAttribute() throws IOException {
        assertEquals("dev.weft.request.trailers", ExchangeAttributes.REQUEST_TRAILERS);
        try (RawHttpClient client = server.connect()) {
            Response response = client.send("POST /trailers HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n"
                    + "Trailer: X-Checksum, X-Other\r\n\r\n"
                    + "5\r\nhello\r\n6;name=value\r\n world\r\n0\r\nX-Checksum: abc123\r\nX-Other: one\r\n"
                    + "X-Other: two\r\n\r\n").readResponse();
            assertEquals(200, response.status(), response::toString);
            assertEquals("body-length: 11\ntrailers: 2\ntrailer x-checksum: abc123\n"
                    + "trailer x-other: one\ntrailer x-other: two\n", response.bodyText());
        }
    }

    @Test
    void requestWithoutTrailersHasAnEmptyTrailersAttribute() throws IOException {
        try (RawHttpClient client = server.connect()) {
            Response response = client.send("POST /trailers HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                    + "3\r\nabc\r\n0\r\n\r\n").readResponse();
            assertEquals("body-length: 3\ntrailers: 0\n", response.bodyText());
        }
    }

    @Test
    void chunkedResponseIsWellFramedOnTheWire() throws IOException {
        try (RawHttpClient client = server.connect()) {
            for (int round = 0; round < 2; round++) {
                Response response = client.send("GET /chunked-response HTTP/1.1\r\n" + HOST + "\r\n").readResponse();
                assertEquals(200, response.status(), response::toString);
                assertTrue(response.chunked(), () -> "not chunked:\n" + response);
                assertEquals("chunked", response.header("Transfer-Encoding").toLowerCase());
                assertNull(response.header("Content-Length"), "Content-Length together with chunked");
                assertArrayEquals(expectedResponseBody(), response.body());
                assertFalse(response.hasConnectionToken("close"), response::toString);
            }
        }
    }

    @Test
    void emptyChunkedResponseIsJustTheLastChunk() throws IOException {
        try (RawHttpClient client = server.connect()) {
            Response response = client.send("GET /empty-chunked-response HTTP/1.1\r\n" + HOST + "\r\n").readResponse();
            assertEquals(200, response.status(), response::toString);
            assertTrue(response.chunked(), () -> "not chunked:\n" + response);
            assertEquals(0, response.body().length);
            Response next = client.send("POST /echo HTTP/1.1\r\n" + HOST + "Content-Length: 2\r\n\r\nok")
                    .readResponse();
            assertEquals("ok", next.bodyText());
        }
    }

    @Test
    void chunkedResponseIsDecodedByTheJdkClient() throws Exception {
        try (HttpClient client = jdkClient()) {
            for (int round = 0; round < 2; round++) {
                HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(server.uri("/chunked-response"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofByteArray());
                assertEquals(200, response.statusCode());
                assertEquals(HttpClient.Version.HTTP_1_1, response.version());
                assertEquals("chunked",
                        response.headers().firstValue("Transfer-Encoding").orElse("").toLowerCase());
                assertArrayEquals(expectedResponseBody(), response.body());
            }
        }
    }

    /** The bytes {@code /chunked-response} writes: piece after piece of a fixed pseudo-random sequence. */
    private static byte[] expectedResponseBody() {
        int total = 0;
        for (int size : RESPONSE_PIECES) {
            total += size;
        }
        return randomBytes(total, 42);
    }

    private static int offset(int pieceSize) {
        int offset = 0;
        for (int size : RESPONSE_PIECES) {
            if (size == pieceSize) {
                return offset;
            }
            offset += size;
        }
        throw new IllegalArgumentException("no piece of " + pieceSize);
    }

    /** Frames {@code body} in chunks of 1..3000 bytes, some with extensions, then the last chunk. */
    private static byte[] chunked(byte[] body, Random random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int pos = 0;
        while (pos < body.length) {
            int size = Math.min(body.length - pos, 1 + random.nextInt(3000));
            String sizeLine = (random.nextBoolean() ? Integer.toHexString(size) : Integer.toHexString(size)
                    .toUpperCase()) + (random.nextInt(4) == 0 ? ";ext=\"quoted; value\";flag" : "") + "\r\n";
            out.writeBytes(sizeLine.getBytes(StandardCharsets.ISO_8859_1));
            out.write(body, pos, size);
            out.writeBytes(new byte[] {'\r', '\n'});
            pos += size;
        }
        out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        return out.toByteArray();
    }

    private static byte[] randomBytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static HttpClient jdkClient() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }
}
