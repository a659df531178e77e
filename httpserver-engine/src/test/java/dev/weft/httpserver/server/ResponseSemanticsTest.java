package dev.weft.httpserver.server;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.RawHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.weft.httpserver.testing.RawHttpClient.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What sendResponseHeaders and the response stream put on the wire, and what the exchange reports. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ResponseSemanticsTest {

    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private void serve(String path, HttpHandler handler) throws IOException {
        serve(ServerConfig.defaults(), path, handler);
    }

    private void serve(ServerConfig config, String path, HttpHandler handler) throws IOException {
        server = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, config);
        server.createContext(path, handler);
        server.start();
    }

    private RawHttpClient connect() throws IOException {
        return RawHttpClient.connect(server.getAddress().getPort());
    }

    private RawHttpClient.Response exchange(String request) throws IOException {
        try (RawHttpClient c = connect()) {
            return c.send(request).readResponse();
        }
    }

    private static void write(HttpExchange ex, String s) throws IOException {
        ex.getResponseBody().write(s.getBytes(StandardCharsets.US_ASCII));
    }

    private static HttpHandler body(int status, long declared, String... parts) {
        return ex -> {
            ex.sendResponseHeaders(status, declared);
            for (String p : parts) {
                write(ex, p);
            }
            ex.close();
        };
    }

    @Test
    void lengthMinusOneSendsContentLengthZero() throws IOException {
        serve("/", body(200, -1));
        RawHttpClient.Response r = exchange(get("/"));
        assertEquals(200, r.status());
        assertEquals("0", r.header("Content-Length"), r::toString);
        assertNull(r.header("Transfer-Encoding"));
    }

    @Test
    void responseTrailersAttributeIsSentInTheChunkedTrailerSection() throws IOException {
        serve("/", ex -> {
            ex.sendResponseHeaders(200, 0);
            com.sun.net.httpserver.Headers trailers = new com.sun.net.httpserver.Headers();
            trailers.add("X-Checksum", "abc123");
            ex.setAttribute(dev.weft.httpserver.ExchangeAttributes.RESPONSE_TRAILERS, trailers);
            try (var out = ex.getResponseBody()) {
                out.write("body".getBytes(StandardCharsets.US_ASCII));
            }
        });
        RawHttpClient.Response r = exchange(get("/"));
        assertTrue(r.chunked(), r::toString);
        assertEquals("body", new String(r.body(), StandardCharsets.US_ASCII));
        assertEquals(java.util.List.of(new RawHttpClient.Header("X-checksum", "abc123")), r.trailers(), r::toString);
    }

    @Test
    void responseTrailersAreNotSentWithAFixedLengthBody() throws IOException {
        serve("/", ex -> {
            ex.setAttribute(dev.weft.httpserver.ExchangeAttributes.RESPONSE_TRAILERS,
                    new com.sun.net.httpserver.Headers(java.util.Map.of("X-A", java.util.List.of("b"))));
            ex.sendResponseHeaders(200, 4);
            try (var out = ex.getResponseBody()) {
                out.write("body".getBytes(StandardCharsets.US_ASCII));
            }
        });
        RawHttpClient.Response r = exchange(get("/"));
        assertEquals("4", r.header("Content-Length"));
        assertTrue(r.trailers().isEmpty());
    }

    @Test
    void lengthZeroIsChunkedForHttp11() throws IOException {
        serve("/", body(200, 0, "abc", "def"));
        RawHttpClient.Response r = exchange(get("/"));
        assertTrue(r.chunked(), r::toString);
        assertNull(r.header("Content-Length"));
        assertEquals("abcdef", r.bodyText());
    }

    @Test
    void lengthZeroIsCloseDelimitedForHttp10() throws IOException {
        serve("/", body(200, 0, "abc", "def"));
        try (RawHttpClient c = connect()) {
            c.send("GET / HTTP/1.0\r\n\r\n");
            RawHttpClient.Response r = c.readResponse();
            assertNull(r.header("Transfer-Encoding"), r::toString);
            assertNull(r.header("Content-Length"), r::toString);
            assertEquals("abcdef", r.bodyText());
        }
    }

    @Test
    void positiveLengthSendsFixedContentLength() throws IOException {
        serve("/", body(200, 5, "he", "llo"));
        RawHttpClient.Response r = exchange(get("/"));
        assertEquals("5", r.header("Content-Length"));
        assertEquals("hello", r.bodyText());
    }

    @Test
    void writingMoreThanTheDeclaredLengthThrowsInTheHandler() throws Exception {
        CompletableFuture<Throwable> oneWrite = new CompletableFuture<>();
        CompletableFuture<Throwable> twoWrites = new CompletableFuture<>();
        serve("/", ex -> {
            ex.sendResponseHeaders(200, 3);
            boolean split = ex.getRequestURI().getPath().equals("/split");
            try {
                if (split) {
                    write(ex, "123");
                }
                write(ex, split ? "4" : "12345");
                (split ? twoWrites : oneWrite).complete(null);
            } catch (Throwable t) {
                (split ? twoWrites : oneWrite).complete(t);
            }
            ex.close();
        });
        try (RawHttpClient a = connect(); RawHttpClient b = connect()) {
            a.send(get("/whole"));
            b.send(get("/split"));
            assertInstanceOf(IOException.class, oneWrite.get(5, TimeUnit.SECONDS));
            assertInstanceOf(IOException.class, twoWrites.get(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void closingWithFewerBytesThanDeclaredThrowsAndClosesTheConnection() throws Exception {
        CompletableFuture<Throwable> closeOutcome = new CompletableFuture<>();
        serve("/", ex -> {
            ex.sendResponseHeaders(200, 10);
            OutputStream out = ex.getResponseBody();
            out.write("abc".getBytes(StandardCharsets.US_ASCII));
            try {
                out.close();
                closeOutcome.complete(null);
            } catch (Throwable t) {
                closeOutcome.complete(t);
            }
        });
        try (RawHttpClient c = connect()) {
            c.send(get("/"));
            EOFException eof = assertThrows(EOFException.class, c::readResponse);
            assertTrue(eof.getMessage().contains("3 of 10"), eof.getMessage());
        }
        assertInstanceOf(IOException.class, closeOutcome.get(5, TimeUnit.SECONDS));
    }

    @Test
    void headResponseCarriesContentLengthButNoBody() throws IOException {
        serve("/", ex -> {
            ex.sendResponseHeaders(200, ex.getRequestURI().getPath().equals("/chunked") ? 0 : 5);
            write(ex, "hello");
            ex.close();
        });
        try (RawHttpClient c = connect()) {
            c.send("HEAD / HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    + "HEAD /chunked HTTP/1.1\r\nHost: localhost\r\n\r\n" + get("/"));
            RawHttpClient.Response head = c.readHeadResponse();
            assertEquals(200, head.status());
            assertEquals("5", head.header("Content-Length"), head::toString);
            assertEquals(200, c.readHeadResponse().status(), "bytes after the first HEAD response");
            RawHttpClient.Response next = c.readResponse();
            assertEquals(200, next.status(), "bytes after the second HEAD response");
            assertEquals("hello", next.bodyText());
        }
    }

    @Test
    void noContentAndNotModifiedHaveNoBody() throws IOException {
        serve("/", ex -> {
            switch (ex.getRequestURI().getPath()) {
                case "/204" -> ex.sendResponseHeaders(204, 0);
                case "/204-none" -> ex.sendResponseHeaders(204, -1);
                case "/304" -> ex.sendResponseHeaders(304, -1);
                default -> {
                    ex.sendResponseHeaders(200, 4);
                    write(ex, "next");
                }
            }
            ex.close();
        });
        try (RawHttpClient c = connect()) {
            c.send(get("/204-none") + get("/204") + get("/304") + get("/next"));
            for (int i = 0; i < 2; i++) {
                RawHttpClient.Response noContent = c.readResponse();
                assertEquals(204, noContent.status(), "bytes after a 204 were not the next response");
                assertNull(noContent.header("Content-Length"), noContent::toString);
                assertNull(noContent.header("Transfer-Encoding"), noContent::toString);
            }
            RawHttpClient.Response notModified = c.readResponse();
            assertEquals(304, notModified.status(), "bytes after 204 were not the next response");
            assertNull(notModified.header("Transfer-Encoding"), notModified::toString);
            RawHttpClient.Response next = c.readResponse();
            assertEquals(200, next.status(), "bytes after 304 were not the next response");
            assertEquals("next", next.bodyText());
        }
    }

    @Test
    void secondSendResponseHeadersThrows() throws Exception {
        CompletableFuture<Throwable> second = new CompletableFuture<>();
        serve("/", ex -> {
            ex.sendResponseHeaders(200, -1);
            try {
                ex.sendResponseHeaders(500, -1);
                second.complete(null);
            } catch (Throwable t) {
                second.complete(t);
            }
            ex.close();
        });
        assertEquals(200, exchange(get("/")).status());
        Throwable t = second.get(5, TimeUnit.SECONDS);
        assertInstanceOf(IOException.class, t);
        assertTrue(t.getMessage().contains("headers already sent"), t.getMessage());
    }

    private static HttpHandler earlyHints() {
        return ex -> {
            ex.getResponseHeaders().set("Link", "</style.css>; rel=preload");
            ex.sendResponseHeaders(103, -1);
            ex.sendResponseHeaders(200, 5);
            write(ex, "final");
            ex.close();
        };
    }

    @Test
    void interimResponseIsSentBeforeTheFinalOne() throws IOException {
        serve("/", earlyHints());
        try (RawHttpClient c = connect()) {
            c.send(get("/"));
            RawHttpClient.Response interim = c.readResponse();
            assertEquals(103, interim.status());
            assertEquals("</style.css>; rel=preload", interim.header("Link"));
            assertNull(interim.header("Content-Length"), interim::toString);
            RawHttpClient.Response last = c.readResponse();
            assertEquals(200, last.status());
            assertEquals("final", last.bodyText());
        }
    }

    @Test
    void interimResponseIsNotSentToHttp10Clients() throws IOException {
        serve("/", earlyHints());
        try (RawHttpClient c = connect()) {
            c.send("GET / HTTP/1.0\r\n\r\n");
            RawHttpClient.Response first = c.readResponse();
            assertEquals(200, first.status(), first::toString);
            assertEquals("final", first.bodyText());
        }
    }

    @Test
    void everyResponseCarriesDateAndServerWeft() throws IOException {
        serve("/", body(200, -1));
        RawHttpClient.Response r = exchange(get("/"));
        assertEquals(List.of("Weft"), r.headers("Server"));
        String date = r.header("Date");
        assertNotNull(date, r::toString);
        assertTrue(date.matches("[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT"), date);
        ZonedDateTime parsed = ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME);
        long skew = Duration.between(parsed, ZonedDateTime.now()).abs().toSeconds();
        assertTrue(skew < 120, "Date is off by " + skew + " s: " + date);
        // error responses generated by the server too
        RawHttpClient.Response error = exchange("GET / HTTP/1.1\r\n\r\n");
        assertEquals(400, error.status());
        assertEquals(List.of("Weft"), error.headers("Server"), error::toString);
        assertNotNull(error.header("Date"), error::toString);
    }

    @Test
    void serverHeaderSetByHandlerWins() throws IOException {
        serve("/", ex -> {
            ex.getResponseHeaders().set("Server", "Custom/1.0");
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        assertEquals(List.of("Custom/1.0"), exchange(get("/")).headers("Server"));
    }

    @Test
    void configuredServerHeaderReplacesWeftAndNullRemovesIt() throws IOException {
        serve(ServerConfig.builder().serverHeader("Acme/2").build(), "/", body(200, -1));
        assertEquals(List.of("Acme/2"), exchange(get("/")).headers("Server"));
        server.stop(0);
        serve(ServerConfig.builder().serverHeader(null).build(), "/", body(200, -1));
        assertEquals(List.of(), exchange(get("/")).headers("Server"));
    }

    @Test
    void handlerExceptionBeforeHeadersGives500AndClose() throws IOException {
        serve("/", ex -> {
            throw new IllegalStateException("boom");
        });
        try (RawHttpClient c = connect()) {
            RawHttpClient.Response r = c.send(get("/")).readResponse();
            assertEquals(500, r.status());
            assertTrue(r.hasConnectionToken("close"), r::toString);
            assertTrue(c.serverClosed(), "connection still open after 500");
        }
    }

    @Test
    void handlerExceptionAfterHeadersTruncatesAndClosesTheConnection() throws IOException {
        serve("/", ex -> {
            boolean chunked = ex.getRequestURI().getPath().equals("/chunked");
            ex.sendResponseHeaders(200, chunked ? 0 : 10);
            write(ex, "abc");
            ex.getResponseBody().flush();
            throw new IllegalStateException("boom after headers");
        });
        try (RawHttpClient c = connect()) {
            assertThrows(EOFException.class, () -> c.send(get("/fixed")).readResponse());
        }
        try (RawHttpClient c = connect()) {
            assertThrows(EOFException.class, () -> c.send(get("/chunked")).readResponse(),
                    "chunked response was terminated as if complete");
        }
    }

    @Test
    void protocolIsReportedAsSentByTheClient() throws IOException {
        serve("/", ex -> {
            byte[] b = ex.getProtocol().getBytes(StandardCharsets.US_ASCII);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        assertEquals("HTTP/1.1", exchange(get("/")).bodyText());
        assertEquals("HTTP/1.0", exchange("GET / HTTP/1.0\r\n\r\n").bodyText());
    }

    @Test
    void requestUriKeepsTheRawPathAndQuery() throws IOException {
        serve("/raw", ex -> {
            String s = ex.getRequestURI() + "|" + ex.getRequestURI().getRawPath() + "|"
                    + ex.getRequestURI().getRawQuery();
            body(200, s.length(), s).handle(ex);
        });
        assertEquals("/raw/p%20q?a=1%202&b=%41+c|/raw/p%20q|a=1%202&b=%41+c",
                exchange(get("/raw/p%20q?a=1%202&b=%41+c")).bodyText());
    }

    @Test
    void requestHeaderNamesAreNormalisedAndLookedUpCaseInsensitively() throws IOException {
        serve("/", ex -> {
            Headers h = ex.getRequestHeaders();
            String s = new TreeSet<>(h.keySet()) + "|" + h.getFirst("X-CUSTOM-HEADER") + "|"
                    + h.getFirst("content-type") + "|" + h.containsKey("x-custom-header");
            body(200, s.length(), s).handle(ex);
        });
        String got = exchange("GET / HTTP/1.1\r\nHost: localhost\r\nx-CUSTOM-header: v1\r\n"
                + "CONTENT-type: text/plain\r\n\r\n").bodyText();
        assertEquals("[Content-type, Host, X-custom-header]|v1|text/plain|true", got);
    }

    @Test
    void requestHeadersAreUnmodifiable() throws IOException {
        serve("/", ex -> {
            Headers h = ex.getRequestHeaders();
            List<String> allowed = new ArrayList<>();
            Map<String, Runnable> attempts = Map.of(
                    "add", () -> h.add("X-New", "1"),
                    "set", () -> h.set("Host", "evil"),
                    "put", () -> h.put("X-New", List.of("1")),
                    "remove", () -> h.remove("Host"),
                    "clear", h::clear);
            attempts.forEach((name, attempt) -> {
                try {
                    attempt.run();
                    allowed.add(name);
                } catch (UnsupportedOperationException expected) { // as it should
                }
            });
            String s = new TreeSet<>(allowed) + " " + h.getFirst("Host");
            body(200, s.length(), s).handle(ex);
        });
        assertEquals("[] localhost", exchange(get("/")).bodyText());
    }
}
