package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.RawHttpClient.Response;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a handler throws after its response is complete cannot take that response back: it reaches the
 * client in full and the connection carries the next request (as the JDK's server does since JDK 21). A
 * handler that throws before its response is complete still gets a {@code 500} and a close. Each case runs
 * inline on the connection's thread and on an executor.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HandlerFailureTest {

    private static final String HOST = "Host: a\r\n";

    private TestServer server;
    private ExecutorService executor;

    @AfterEach
    void stop() {
        server.close();
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    private void start(boolean withExecutor) throws IOException {
        executor = withExecutor ? Executors.newFixedThreadPool(2) : null;
        HttpHandler next = exchange -> TestServer.respond(exchange, 200, "next");
        server = TestServer.builder()
                .handle("/error-after-close", exchange -> {
                    TestServer.respond(exchange, 200, "complete before the Error");
                    throw new Error("thrown after close()");
                })
                .handle("/exception-after-close", exchange -> {
                    TestServer.respond(exchange, 200, "complete before the exception");
                    throw new IllegalStateException("thrown after close()");
                })
                .handle("/exception-after-the-last-byte", exchange -> {
                    byte[] body = "all bytes written, stream not closed".getBytes();
                    exchange.sendResponseHeaders(200, body.length);
                    exchange.getResponseBody().write(body);
                    throw new IllegalStateException("thrown before close()");
                })
                .handle("/exception-before-the-response", exchange -> {
                    throw new IllegalStateException("thrown before any response");
                })
                .handle("/exception-mid-body", exchange -> {
                    exchange.sendResponseHeaders(200, 100);
                    exchange.getResponseBody().write(new byte[10]);
                    throw new IllegalStateException("thrown with 90 bytes missing");
                })
                .handle("/next", next)
                .executor(executor)
                .start();
    }

    @ParameterizedTest(name = "executor: {0}")
    @ValueSource(booleans = {false, true})
    void errorThrownAfterCloseLosesNothingOfTheResponse(boolean withExecutor) throws IOException {
        start(withExecutor);
        try (RawHttpClient client = server.connect()) {
            client.send("GET /error-after-close HTTP/1.1\r\n" + HOST + "\r\n");

            Response r = client.readResponse();

            assertEquals(200, r.status());
            assertEquals("complete before the Error", r.bodyText());
        }
    }

    @ParameterizedTest(name = "executor: {0}")
    @ValueSource(booleans = {false, true})
    void exceptionAfterCloseKeepsTheConnectionForTheNextRequest(boolean withExecutor) throws IOException {
        start(withExecutor);
        try (RawHttpClient client = server.connect()) {
            client.send("GET /exception-after-close HTTP/1.1\r\n" + HOST + "\r\n");
            Response first = client.readResponse();
            assertEquals("complete before the exception", first.bodyText());
            assertFalse(first.hasConnectionToken("close"));

            client.send("GET /next HTTP/1.1\r\n" + HOST + "\r\n");

            assertEquals("next", client.readResponse().bodyText());
        }
    }

    @ParameterizedTest(name = "executor: {0}")
    @ValueSource(booleans = {false, true})
    void exceptionAfterTheLastDeclaredByteKeepsTheConnection(boolean withExecutor) throws IOException {
        start(withExecutor);
        try (RawHttpClient client = server.connect()) {
            client.send("GET /exception-after-the-last-byte HTTP/1.1\r\n" + HOST + "\r\n");
            assertEquals("all bytes written, stream not closed", client.readResponse().bodyText());

            client.send("GET /next HTTP/1.1\r\n" + HOST + "\r\n");

            assertEquals("next", client.readResponse().bodyText());
        }
    }

    @ParameterizedTest(name = "executor: {0}")
    @ValueSource(booleans = {false, true})
    void exceptionBeforeTheResponseGives500AndACloseInstead(boolean withExecutor) throws IOException {
        start(withExecutor);
        try (RawHttpClient client = server.connect()) {
            client.send("GET /exception-before-the-response HTTP/1.1\r\n" + HOST + "\r\n");

            Response r = client.readResponse();

            assertEquals(500, r.status());
            assertTrue(client.serverClosed(), "closed after the 500");
        }
        assertEquals(1, server.stats().handlerExceptions());
    }

    @ParameterizedTest(name = "executor: {0}")
    @ValueSource(booleans = {false, true})
    void exceptionInTheMiddleOfTheBodyBreaksTheResponseOff(boolean withExecutor) throws IOException {
        start(withExecutor);
        try (RawHttpClient client = server.connect()) {
            client.send("GET /exception-mid-body HTTP/1.1\r\n" + HOST + "\r\n");

            byte[] all = client.readUntilClose();

            // The head and the 10 bytes, then the close: a client cannot take it for a complete body.
            String text = new String(all, java.nio.charset.StandardCharsets.ISO_8859_1);
            assertTrue(text.startsWith("HTTP/1.1 200 "), text);
            assertTrue(text.contains("Content-Length: 100"), text);
            assertEquals(10, all.length - (text.indexOf("\r\n\r\n") + 4));
        }
    }
}
