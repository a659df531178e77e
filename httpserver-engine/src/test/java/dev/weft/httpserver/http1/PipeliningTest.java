package dev.weft.httpserver.http1;

import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.RawHttpClient.Response;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pipelined requests are answered strictly in order; keep-alive and {@code Connection: close} rules. */
@Timeout(60)
class PipeliningTest {

    private static final String HOST = "Host: localhost\r\n";
    private static final String STREAMED_BODY = "streamed body without a declared length";

    private static final Map<String, AtomicInteger> handled = new ConcurrentHashMap<>();
    private static TestServer server;

    @BeforeAll
    static void startServer() throws IOException {
        HttpHandler echo = TestServer.echoHandler();
        server = TestServer.builder()
                .handle("/", exchange -> {
                    String path = exchange.getRequestURI().getPath();
                    handled.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
                    if (path.equals("/req/0")) {
                        // a pace: the first request is the slowest handler, its response must still come first
                        sleep(300);
                    }
                    echo.handle(exchange);
                })
                .handle("/close-by-handler", exchange -> {
                    exchange.getResponseHeaders().set("Connection", "close");
                    TestServer.respond(exchange, 200, "bye");
                })
                .handle("/streamed", exchange -> {
                    exchange.sendResponseHeaders(200, 0);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(STREAMED_BODY.getBytes(StandardCharsets.US_ASCII));
                    }
                })
                .start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void pipelinedRequestsInOneWriteAreAnsweredInOrder() throws IOException {
        int n = 24;
        StringBuilder batch = new StringBuilder();
        for (int i = 0; i < n; i++) {
            String target = "/req/" + i;
            switch (i % 3) {
                case 0 -> batch.append("GET ").append(target).append(" HTTP/1.1\r\n").append(HOST).append("\r\n");
                case 1 -> batch.append("POST ").append(target).append(" HTTP/1.1\r\n").append(HOST)
                        .append("Content-Length: ").append(i).append("\r\n\r\n").append("x".repeat(i));
                default -> batch.append("POST ").append(target).append(" HTTP/1.1\r\n").append(HOST)
                        .append("Transfer-Encoding: chunked\r\n\r\n")
                        .append(Integer.toHexString(i / 2)).append("\r\n").append("y".repeat(i / 2)).append("\r\n")
                        .append(Integer.toHexString(i - i / 2)).append(";ext=1\r\n").append("z".repeat(i - i / 2))
                        .append("\r\n0\r\n\r\n");
            }
        }
        try (RawHttpClient client = server.connect()) {
            client.send(batch.toString());
            for (int i = 0; i < n; i++) {
                Response response = client.readResponse();
                String body = response.bodyText();
                int index = i;
                assertEquals(200, response.status(), response::toString);
                assertTrue(body.contains("uri: /req/" + i + "\n"), () -> "response " + index + " is for:\n" + body);
                assertTrue(body.contains("method: " + (i % 3 == 0 ? "GET" : "POST") + "\n"), body);
                assertTrue(body.contains("body-length: " + (i % 3 == 0 ? 0 : i) + "\n"), body);
            }
            // open after the batch: the next request on the connection is served
            Response after = client.send("GET /req/after HTTP/1.1\r\n" + HOST + "\r\n").readResponse();
            assertTrue(after.bodyText().contains("uri: /req/after\n"), after::bodyText);
        }
    }

    @Test
    void requestPipelinedAfterConnectionCloseIsNotExecuted() throws IOException {
        try (RawHttpClient client = server.connect()) {
            client.send("GET /closing HTTP/1.1\r\n" + HOST + "Connection: close\r\n\r\n"
                    + "GET /never HTTP/1.1\r\n" + HOST + "\r\n");
            List<Response> responses = client.readResponsesUntilClose();
            assertEquals(1, responses.size(), () -> "responses: " + responses);
            assertTrue(responses.get(0).bodyText().contains("uri: /closing\n"));
        }
        assertNull(handled.get("/never"), "request after Connection: close was executed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"close", "Close", "CLOSE", "te, close", "close, keep-alive"})
    void connectionCloseRequestHeaderClosesAfterTheResponse(String connection) throws IOException {
        try (RawHttpClient client = server.connect()) {
            Response response = client.send("GET /c HTTP/1.1\r\n" + HOST + "Connection: " + connection
                    + "\r\n\r\n").readResponse();
            assertEquals(200, response.status(), response::toString);
            assertTrue(client.serverClosed(), "connection still open after Connection: " + connection);
        }
    }

    @Test
    void connectionCloseSetByTheHandlerClosesAfterTheResponse() throws IOException {
        try (RawHttpClient client = server.connect()) {
            Response response = client.send("GET /close-by-handler HTTP/1.1\r\n" + HOST + "\r\n").readResponse();
            assertEquals("bye", response.bodyText());
            assertTrue(response.hasConnectionToken("close"), response::toString);
            assertTrue(client.serverClosed(), "connection still open after the handler's Connection: close");
        }
    }

    @Test
    void http11ConnectionIsKeptAliveByDefault() throws IOException {
        try (RawHttpClient client = server.connect()) {
            for (int i = 0; i < 3; i++) {
                Response response = client.send("GET /ka/" + i + " HTTP/1.1\r\n" + HOST + "\r\n").readResponse();
                assertEquals(200, response.status());
                assertFalse(response.hasConnectionToken("close"), response::toString);
            }
            // still open after the last: the next request on the connection is served
            Response after = client.send("GET /ka/after HTTP/1.1\r\n" + HOST + "\r\n").readResponse();
            assertTrue(after.bodyText().contains("uri: /ka/after\n"), after::bodyText);
        }
    }

    @Test
    void http10RequestWithKeepAliveIsAnsweredWithKeepAliveAndTheConnectionStaysOpen() throws IOException {
        try (RawHttpClient client = server.connect()) {
            client.send("GET /k1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
                    + "GET /k2 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            for (String path : List.of("/k1", "/k2")) {
                Response response = client.readResponse();
                assertEquals(200, response.status(), response::toString);
                assertTrue(response.bodyText().contains("uri: " + path + "\n"), response::bodyText);
                assertTrue(response.hasConnectionToken("keep-alive"), response::toString);
                assertTrue(response.header("Content-Length") != null, response::toString);
            }
            // kept alive: the next request on the connection is served
            Response third = client.send("GET /k3 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").readResponse();
            assertTrue(third.bodyText().contains("uri: /k3\n"), third::bodyText);
        }
    }

    @Test
    void http10RequestWithoutKeepAliveIsClosedAfterTheResponse() throws IOException {
        try (RawHttpClient client = server.connect()) {
            client.send("GET /once HTTP/1.0\r\n\r\nGET /never10 HTTP/1.0\r\n\r\n");
            List<Response> responses = client.readResponsesUntilClose();
            assertEquals(1, responses.size(), () -> "responses: " + responses);
            assertEquals(200, responses.get(0).status());
            assertFalse(responses.get(0).hasConnectionToken("keep-alive"), responses.get(0)::toString);
        }
        assertNull(handled.get("/never10"), "second HTTP/1.0 request was executed on a closing connection");
    }

    @Test
    void http10KeepAliveWithUnknownLengthResponseIsCloseDelimited() throws IOException {
        try (RawHttpClient client = server.connect()) {
            client.send("GET /streamed HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            Response response = client.readResponse(); // no length, not chunked: body runs to the close
            assertEquals(200, response.status(), response::toString);
            assertFalse(response.chunked(), "chunked response to HTTP/1.0");
            assertNull(response.header("Transfer-Encoding"), response::toString);
            assertNull(response.header("Content-Length"), response::toString);
            assertFalse(response.hasConnectionToken("keep-alive"), response::toString);
            assertEquals(STREAMED_BODY, response.bodyText());
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
