package dev.weft.httpserver.http1;

import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.RawHttpClient.Response;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Ambiguous or broken body framing is rejected and the connection closed, so a request hidden in a body
 * is never executed.
 */
@Timeout(60)
class RequestSmugglingTest {

    private static final String HOST = "Host: localhost\r\n";
    private static final String SMUGGLED = "GET /smuggled HTTP/1.1\r\n" + HOST + "\r\n";
    private static final int MAX_CHUNK_LINE = 64;

    private final Map<String, AtomicInteger> handled = new ConcurrentHashMap<>();
    private TestServer server;

    @BeforeEach
    void startServer() throws IOException {
        HttpHandler counting = exchange -> {
            handled.computeIfAbsent(exchange.getRequestURI().getPath(), p -> new AtomicInteger()).incrementAndGet();
            long length = TestServer.drain(exchange.getRequestBody());
            TestServer.respond(exchange, 200, TestServer.describe(exchange, length));
        };
        server = TestServer.builder()
                .config(ServerConfig.builder().maxChunkLineLength(MAX_CHUNK_LINE).build())
                .handle("/", counting)
                .handle("/respond-first", exchange -> {
                    handled.computeIfAbsent("/respond-first", p -> new AtomicInteger()).incrementAndGet();
                    exchange.sendResponseHeaders(200, 0);
                    exchange.getResponseBody().write("started".getBytes(StandardCharsets.US_ASCII));
                    exchange.getResponseBody().flush();
                    TestServer.drain(exchange.getRequestBody());
                    exchange.close();
                })
                .start();
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    /** Head rejections: the handler must not even run. */
    static Stream<Arguments> ambiguousFraming() {
        return Stream.of(
                arguments("Content-Length then Transfer-Encoding", "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
                        "0\r\n\r\n"),
                arguments("Transfer-Encoding then Content-Length", "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n",
                        "0\r\n\r\n"),
                arguments("Content-Length then Transfer-Encoding not chunked",
                        "Content-Length: 0\r\nTransfer-Encoding: identity\r\n", ""),
                arguments("two Content-Length fields, second covering the smuggled request",
                        "Content-Length: 0\r\nContent-Length: " + SMUGGLED.length() + "\r\n", ""),
                arguments("two equal Content-Length fields", "Content-Length: 0\r\nContent-Length: 0\r\n", ""),
                arguments("Content-Length list", "Content-Length: 0, " + SMUGGLED.length() + "\r\n", ""),
                arguments("Transfer-Encoding chunked then identity", "Transfer-Encoding: chunked, identity\r\n",
                        "0\r\n\r\n"),
                arguments("two Transfer-Encoding fields, last not chunked",
                        "Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n", "0\r\n\r\n"),
                arguments("two Transfer-Encoding fields, both chunked",
                        "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n", "0\r\n\r\n"),
                arguments("Transfer-Encoding chunked, chunked", "Transfer-Encoding: chunked, chunked\r\n",
                        "0\r\n\r\n"),
                arguments("Transfer-Encoding xchunked", "Transfer-Encoding: xchunked\r\n", "0\r\n\r\n"),
                arguments("Transfer-Encoding with space before colon", "Transfer-Encoding : chunked\r\n",
                        "0\r\n\r\n"),
                arguments("Transfer-Encoding folded", "Transfer-Encoding:\r\n chunked\r\n", "0\r\n\r\n"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("ambiguousFraming")
    void ambiguousFramingIsRejectedWith400AndTheSmuggledRequestIsNotExecuted(String description, String fields,
                                                                             String body) throws IOException {
        String request = "POST /outer HTTP/1.1\r\n" + HOST + fields + "\r\n" + body + SMUGGLED;
        assertRejectedWithoutSmuggling(request, 400);
        assertEquals(0, count("/outer"), "handler ran for a request with ambiguous framing");
    }

    @Test
    void contentLengthWithTransferEncodingIsRejectedWith400() throws IOException {
        assertRejectedWithoutSmuggling("POST /outer HTTP/1.1\r\n" + HOST
                + "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + SMUGGLED, 400);
        assertEquals(0, count("/outer"));
    }

    /** Body rejections, found while the handler reads: 400 because no response was sent yet. */
    static Stream<Arguments> brokenChunkedBodies() {
        return Stream.of(
                arguments("non-hex size", "zz\r\n"),
                arguments("empty size", "\r\nhello\r\n0\r\n\r\n"),
                arguments("negative size", "-5\r\nhello\r\n0\r\n\r\n"),
                arguments("0x prefix", "0x5\r\nhello\r\n0\r\n\r\n"),
                arguments("space before size", " 5\r\nhello\r\n0\r\n\r\n"),
                arguments("size over 16 hex digits", "11111111111111111\r\nhello\r\n0\r\n\r\n"),
                arguments("chunk extension too long",
                        "5;ext=" + "x".repeat(2 * MAX_CHUNK_LINE) + "\r\nhello\r\n0\r\n\r\n"),
                arguments("over-long chunk size digits", "5" + "0".repeat(2 * MAX_CHUNK_LINE)),
                arguments("no CRLF after chunk data", "5\r\nhelloXX0\r\n\r\n"),
                arguments("chunk data longer than its size", "3\r\nhello\r\n0\r\n\r\n"),
                arguments("bare LF after chunk data", "5\r\nhello\n0\r\n\r\n"),
                arguments("malformed trailer line", "5\r\nhello\r\n0\r\nX\r\n"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("brokenChunkedBodies")
    void brokenChunkedBodyIsRejectedWith400AndTheSmuggledRequestIsNotExecuted(String description, String body)
            throws IOException {
        String request = "POST /outer HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n" + body + SMUGGLED;
        assertRejectedWithoutSmuggling(request, 400);
    }

    @Test
    void brokenChunkedBodyAfterTheResponseStartedClosesTheConnectionAndTruncatesTheResponse() throws IOException {
        String request = "POST /respond-first HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                + "5\r\nhelloXX0\r\n\r\n" + SMUGGLED;
        try (RawHttpClient client = server.connect()) {
            client.send(request);
            // the chunked response must not be completed (no last chunk): the client can tell it is cut short
            IOException truncated = assertThrows(IOException.class, client::readResponse);
            assertTrue(truncated instanceof EOFException || truncated instanceof SocketException,
                    () -> "expected a cut-short response, got " + truncated);
            assertTrue(client.serverClosed(), "connection still open");
        }
        assertEquals(1, count("/respond-first"));
        assertEquals(0, count("/smuggled"), "the request hidden in the body was executed");
    }

    @Test
    void chunkSizeOfSixteenHexDigitsWithLeadingZerosIsAccepted() throws IOException {
        try (RawHttpClient client = server.connect()) {
            Response response = client.send("POST /outer HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                    + "0000000000000005\r\nhello\r\n0\r\n\r\n").readResponse();
            assertEquals(200, response.status(), response::toString);
            assertTrue(response.bodyText().contains("body-length: 5\n"), response::bodyText);
        }
    }

    @Test
    void requestInsideAValidChunkedBodyIsOnlyBodyData() throws IOException {
        String hidden = SMUGGLED;
        String request = "POST /outer HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                + Integer.toHexString(hidden.length()) + "\r\n" + hidden + "\r\n0\r\n\r\n";
        try (RawHttpClient client = server.connect()) {
            Response response = client.send(request).readResponse();
            assertEquals(200, response.status(), response::toString);
            assertTrue(response.bodyText().contains("body-length: " + hidden.length() + "\n"), response::bodyText);
            // the sentinel: the next response on the connection is for the next request, not for a hidden one
            Response next = client.send("GET /next HTTP/1.1\r\n" + HOST + "\r\n").readResponse();
            assertTrue(next.bodyText().contains("uri: /next\n"), next::bodyText);
        }
        assertEquals(1, count("/outer"));
        assertEquals(0, count("/smuggled"));
    }

    @Test
    void requestAfterAValidChunkedBodyIsThePipelinedNextRequest() throws IOException {
        // Control case: proves the smuggled request line would be executed if framing let it through.
        String request = "POST /outer HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + SMUGGLED;
        try (RawHttpClient client = server.connect()) {
            client.send(request);
            assertEquals(200, client.readResponse().status());
            Response second = client.readResponse();
            assertEquals(200, second.status(), second::toString);
            assertTrue(second.bodyText().contains("uri: /smuggled\n"), second::bodyText);
        }
        assertEquals(1, count("/smuggled"));
    }

    private void assertRejectedWithoutSmuggling(String request, int status) throws IOException {
        try (RawHttpClient client = server.connect()) {
            Response response = client.send(request).readResponse();
            assertEquals(status, response.status(), () -> "for " + visible(request) + " got\n" + response);
            assertTrue(response.hasConnectionToken("close"), () -> "no Connection: close in\n" + response);
            List<Response> more = client.readResponsesUntilClose();
            assertEquals(List.of(), more, "responses after the error response");
        }
        assertEquals(0, count("/smuggled"), "the request hidden in the body was executed");
        // and the server is fine afterwards
        try (RawHttpClient client = server.connect()) {
            assertEquals(200, client.send("GET /next HTTP/1.1\r\n" + HOST + "\r\n").readResponse().status());
        }
        assertEquals(0, count("/smuggled"), "the request hidden in the body was executed");
    }

    private int count(String path) {
        AtomicInteger n = handled.get(path);
        return n == null ? 0 : n.get();
    }

    private static String visible(String s) {
        return s.replace("\r", "\\r").replace("\n", "\\n");
    }
}
