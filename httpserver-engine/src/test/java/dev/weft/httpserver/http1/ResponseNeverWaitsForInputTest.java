package dev.weft.httpserver.http1;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.testing.Await;
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
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A finished response is sent at once, whatever the connection has buffered of the next request or of an
 * unread body: a client must never need to send more bytes to receive an answer that is ready. The server's
 * header timeout is far longer than the client's read timeout, so a response held back until then fails the
 * read instead of arriving late.
 */
@Timeout(30)
class ResponseNeverWaitsForInputTest {

    private static final String HOST = "Host: a\r\n";
    private static final Duration CLIENT_WAIT = Duration.ofSeconds(10);

    private static TestServer server;

    @BeforeAll
    static void startServer() throws IOException {
        ServerConfig config = ServerConfig.builder()
                .headerReadTimeout(Duration.ofMinutes(1))
                .bodyReadTimeout(Duration.ofMinutes(1))
                .drainTimeout(Duration.ofMillis(300))
                .build();
        server = TestServer.builder().config(config)
                .handle("/", TestServer.echoHandler())
                .handle("/unread", exchange -> TestServer.respond(exchange, 200, "answered without reading"))
                .start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "GET / HTTP/1.1\r\n" + HOST + "\r\nG",
            "GET / HTTP/1.1\r\n" + HOST + "\r\nGET /next HTT",
            "POST / HTTP/1.1\r\n" + HOST + "Content-Length: 0\r\n\r\nGET /ne",
            "GET / HTTP/1.1\r\n" + HOST + "\r\nGET /next HTTP/1.1\r\nHost: a\r\nX-Partial",
            "POST / HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\nGET / HTTP/1.1\r\n"})
    void responseIsSentWhileOnlyPartOfTheNextRequestHasArrived(String bytes) throws IOException {
        try (RawHttpClient client = RawHttpClient.connect(server.port(), CLIENT_WAIT)) {
            client.send(bytes);

            Response first = client.readResponse();

            assertEquals(200, first.status());
        }
    }

    @Test
    void theNextRequestIsServedOnceItsRestArrives() throws IOException {
        try (RawHttpClient client = RawHttpClient.connect(server.port(), CLIENT_WAIT)) {
            client.send("GET /first HTTP/1.1\r\n" + HOST + "\r\nGET /sec");
            assertTrue(client.readResponse().bodyText().contains("uri: /first"));

            client.send("ond HTTP/1.1\r\n" + HOST + "\r\n");

            assertTrue(client.readResponse().bodyText().contains("uri: /second"));
        }
    }

    @Test
    void responseToAnUnreadBodyIsSentBeforeTheBodyHasArrived() throws IOException {
        try (RawHttpClient client = RawHttpClient.connect(server.port(), CLIENT_WAIT)) {
            client.send("POST /unread HTTP/1.1\r\n" + HOST + "Content-Length: 100\r\n\r\n" + "x".repeat(10));

            Response r = client.readResponse();

            assertEquals(200, r.status());
            assertEquals("answered without reading", r.bodyText());
        }
    }

    @Test
    void connectionStaysUsableWhenTheUnreadBodyFollowsTheResponse() throws IOException {
        try (RawHttpClient client = RawHttpClient.connect(server.port(), CLIENT_WAIT)) {
            client.send("POST /unread HTTP/1.1\r\n" + HOST + "Content-Length: 20\r\n\r\n" + "x".repeat(5));
            assertEquals(200, client.readResponse().status());

            client.send("y".repeat(15) + "GET /after HTTP/1.1\r\n" + HOST + "\r\n");

            Response next = client.readResponse();
            assertTrue(next.bodyText().contains("uri: /after"), next.bodyText());
        }
    }

    @Test
    void unreadBodyThatStopsArrivingClosesTheConnectionAfterTheDrainTimeout() throws IOException {
        long before = server.stats().protocolErrors().getOrDefault(ProtocolError.DRAIN_TIMEOUT, 0L);
        try (RawHttpClient client = RawHttpClient.connect(server.port(), CLIENT_WAIT)) {
            client.send("POST /unread HTTP/1.1\r\n" + HOST + "Content-Length: 100\r\n\r\n" + "x".repeat(10));
            assertEquals(200, client.readResponse().status());

            assertTrue(client.serverClosedWithin(CLIENT_WAIT), "closed after the drain timeout");
        }
        Await.until("the drain timeout counted", () ->
                server.stats().protocolErrors().getOrDefault(ProtocolError.DRAIN_TIMEOUT, 0L) == before + 1);
    }
}
