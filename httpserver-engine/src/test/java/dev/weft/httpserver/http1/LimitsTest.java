package dev.weft.httpserver.http1;

import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.RawHttpClient.Response;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each size limit accepts a request exactly at the limit and rejects one byte (or field) over it.
 *
 * <p>Sizes as measured here: the request line without its CRLF; the header section as every field line with
 * its CRLF plus the empty line's CRLF; a chunk line as size and extensions without the CRLF.
 */
@Timeout(60)
class LimitsTest {

    private static final int MAX_REQUEST_LINE = 100;
    private static final int MAX_HEADER_SIZE = 200;
    private static final int MAX_HEADER_COUNT = 5;
    private static final int MAX_BODY = 100;
    private static final int MAX_CHUNK_LINE = 20;
    private static final String HOST = "Host: localhost\r\n";

    private static final AtomicInteger handled = new AtomicInteger();
    private static final AtomicReference<IOException> bodyReadFailure = new AtomicReference<>();
    private static TestServer server;

    @BeforeAll
    static void startServer() throws IOException {
        HttpHandler handler = exchange -> {
            handled.incrementAndGet();
            long length;
            try {
                length = TestServer.drain(exchange.getRequestBody());
            } catch (IOException e) {
                bodyReadFailure.set(e);
                throw e;
            }
            TestServer.respond(exchange, 200, TestServer.describe(exchange, length));
        };
        server = TestServer.builder()
                .config(ServerConfig.builder()
                        .maxRequestLineLength(MAX_REQUEST_LINE)
                        .maxHeaderSize(MAX_HEADER_SIZE)
                        .maxHeaderCount(MAX_HEADER_COUNT)
                        .maxRequestBodySize(MAX_BODY)
                        .maxChunkLineLength(MAX_CHUNK_LINE)
                        .build())
                .handle("/", handler)
                .handle("/respond-first", exchange -> {
                    handled.incrementAndGet();
                    exchange.sendResponseHeaders(200, 0);
                    exchange.getResponseBody().write("started".getBytes(StandardCharsets.US_ASCII));
                    exchange.getResponseBody().flush();
                    try {
                        TestServer.drain(exchange.getRequestBody());
                    } catch (IOException e) {
                        bodyReadFailure.set(e);
                        throw e;
                    }
                    exchange.close();
                })
                .start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @BeforeEach
    void reset() {
        handled.set(0);
        bodyReadFailure.set(null);
    }

    @Test
    void requestLineAtTheLimitIsAccepted() throws IOException {
        assertAccepted(requestLine(MAX_REQUEST_LINE) + "\r\n" + HOST + "\r\n");
    }

    @Test
    void requestLineOneByteOverTheLimitIsRejectedWith414() throws IOException {
        assertRejected(requestLine(MAX_REQUEST_LINE + 1) + "\r\n" + HOST + "\r\n", 414);
    }

    @Test
    void headerSectionAtTheLimitIsAccepted() throws IOException {
        assertAccepted("GET / HTTP/1.1\r\n" + headerSection(MAX_HEADER_SIZE));
    }

    @Test
    void headerSectionOneByteOverTheLimitIsRejectedWith431() throws IOException {
        assertRejected("GET / HTTP/1.1\r\n" + headerSection(MAX_HEADER_SIZE + 1), 431);
    }

    @Test
    void headerCountAtTheLimitIsAccepted() throws IOException {
        assertAccepted("GET / HTTP/1.1\r\n" + fields(MAX_HEADER_COUNT) + "\r\n");
    }

    @Test
    void headerCountOneOverTheLimitIsRejectedWith431() throws IOException {
        assertRejected("GET / HTTP/1.1\r\n" + fields(MAX_HEADER_COUNT + 1) + "\r\n", 431);
    }

    @Test
    void contentLengthAtTheLimitIsAccepted() throws IOException {
        Response response = assertAccepted("POST / HTTP/1.1\r\n" + HOST + "Content-Length: " + MAX_BODY + "\r\n\r\n"
                + "b".repeat(MAX_BODY));
        assertTrue(response.bodyText().contains("body-length: " + MAX_BODY + "\n"), response::bodyText);
    }

    @Test
    void contentLengthOneOverTheLimitIsRejectedWith413BeforeTheHandlerRuns() throws IOException {
        // Only the head is sent: the answer must not wait for the body.
        assertRejected("POST / HTTP/1.1\r\n" + HOST + "Content-Length: " + (MAX_BODY + 1) + "\r\n\r\n", 413);
        assertEquals(0, handled.get(), "handler ran for a body over the limit");
    }

    @Test
    void hugeContentLengthIsRejectedWith413() throws IOException {
        assertRejected("POST / HTTP/1.1\r\n" + HOST + "Content-Length: 999999999999\r\n\r\n", 413);
        assertEquals(0, handled.get());
    }

    @Test
    void chunkedBodyAtTheLimitIsAccepted() throws IOException {
        Response response = assertAccepted("POST / HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                + chunks(40, 40, MAX_BODY - 80));
        assertTrue(response.bodyText().contains("body-length: " + MAX_BODY + "\n"), response::bodyText);
    }

    @Test
    void chunkedBodyOneByteOverTheLimitFailsTheHandlersReadAndIsRejectedWith413() throws IOException {
        assertRejected("POST / HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                + chunks(40, 40, MAX_BODY - 80 + 1), 413);
        assertEquals(1, handled.get(), "the handler should have run and seen the failure");
        assertNotNull(bodyReadFailure.get(), "the handler's read did not throw");
    }

    @Test
    void chunkedBodyOverTheLimitAfterTheResponseStartedClosesTheConnection() throws IOException {
        try (RawHttpClient client = server.connect()) {
            client.send("POST /respond-first HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                    + chunks(60, 60));
            IOException truncated = assertThrows(IOException.class, client::readResponse,
                    "the response was completed although the handler's read failed");
            assertTrue(truncated instanceof EOFException || truncated instanceof SocketException,
                    () -> "expected a cut-short response, got " + truncated);
            assertTrue(client.serverClosed(), "connection still open");
        }
        assertNotNull(bodyReadFailure.get(), "the handler's read did not throw");
    }

    @Test
    void chunkLineAtTheLimitIsAccepted() throws IOException {
        String line = chunkLine(MAX_CHUNK_LINE);
        assertAccepted("POST / HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                + line + "\r\nhello\r\n0\r\n\r\n");
    }

    @Test
    void chunkLineOneByteOverTheLimitIsRejectedWith400() throws IOException {
        String line = chunkLine(MAX_CHUNK_LINE + 1);
        assertRejected("POST / HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                + line + "\r\nhello\r\n0\r\n\r\n", 400);
    }

    /** {@code GET /aaa… HTTP/1.1} of exactly {@code length} bytes. */
    private static String requestLine(int length) {
        String line = "GET /" + "a".repeat(length - "GET / HTTP/1.1".length()) + " HTTP/1.1";
        assertEquals(length, line.length());
        return line;
    }

    /** Host, a padding field and the empty line: exactly {@code size} bytes. */
    private static String headerSection(int size) {
        int fixed = HOST.length() + "X-Pad: \r\n".length() + "\r\n".length();
        String section = HOST + "X-Pad: " + "p".repeat(size - fixed) + "\r\n\r\n";
        assertEquals(size, section.length());
        return section;
    }

    /** {@code count} field lines, the first being Host. */
    private static String fields(int count) {
        StringBuilder s = new StringBuilder(HOST);
        for (int i = 1; i < count; i++) {
            s.append("X-").append(i).append(": v\r\n");
        }
        return s.toString();
    }

    /** {@code 5;e=xxx…} of exactly {@code length} bytes, announcing a 5-byte chunk. */
    private static String chunkLine(int length) {
        String line = "5;e=" + "x".repeat(length - 4);
        assertEquals(length, line.length());
        return line;
    }

    private static String chunks(int... sizes) {
        StringBuilder s = new StringBuilder();
        for (int size : sizes) {
            s.append(Integer.toHexString(size)).append("\r\n").append("c".repeat(size)).append("\r\n");
        }
        return s.append("0\r\n\r\n").toString();
    }

    private static Response assertAccepted(String request) throws IOException {
        try (RawHttpClient client = server.connect()) {
            Response response = client.send(request).readResponse();
            assertEquals(200, response.status(), response::toString);
            assertEquals(1, handled.get());
            return response;
        }
    }

    private static void assertRejected(String request, int status) throws IOException {
        try (RawHttpClient client = server.connect()) {
            Response response = client.send(request).readResponse();
            assertEquals(status, response.status(), response::toString);
            assertTrue(response.hasConnectionToken("close"), () -> "no Connection: close in\n" + response);
            assertTrue(client.serverClosed(), "connection still open after " + status);
        }
    }
}
