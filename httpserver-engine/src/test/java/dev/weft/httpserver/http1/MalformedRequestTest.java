package dev.weft.httpserver.http1;

import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.RawHttpClient.Response;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Every malformed request head in the contract's error table gets its exact status, with
 * {@code Connection: close}, and the connection is closed; the server keeps serving others.
 */
@Timeout(60)
class MalformedRequestTest {

    private static final String HOST = "Host: localhost\r\n";

    private static TestServer server;

    @BeforeAll
    static void startServer() throws IOException {
        server = TestServer.builder()
                .handle("/", TestServer.echoHandler())
                .handle("/abs", exchange -> TestServer.respond(exchange, 200, "abs context"))
                .start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    static Stream<Arguments> malformedHeads() {
        List<Arguments> rows = new ArrayList<>();
        // request line not "method SP target SP HTTP/x.y CRLF"
        for (String line : List.of("GET  / HTTP/1.1", "GET /  HTTP/1.1", "GET\t/ HTTP/1.1", "GET /\tHTTP/1.1",
                "GET / HTTP/1.1 ", " GET / HTTP/1.1", "GET / HTTP/1.1 extra", "GET /", "GET", "GET  HTTP/1.1",
                "/ HTTP/1.1")) {
            rows.add(row("request line '" + line + "'", line + "\r\n" + HOST + "\r\n", 400));
        }
        // method with non-token characters
        for (String method : List.of("GE(T", "GE\"T", "GE:T", "GE@T", "GE,T", "G\u00c9T", "GE\u0001T")) {
            rows.add(row("method " + escape(method), method + " / HTTP/1.1\r\n" + HOST + "\r\n", 400));
        }
        // target with space, control, non-ASCII, "<>\^`{|}, bad % escape; or in no valid form
        for (String target : List.of("/a b", "/a\u0000b", "/a\u0001b", "/a\u001fb", "/a\u007fb", "/a\tb",
                "/caf\u00e9", "/a\u00ffb", "/a\"b", "/a<b", "/a>b", "/a\\b", "/a^b", "/a`b", "/a{b", "/a|b",
                "/a}b", "/a%zz", "/a%2", "/a%", "/a%g0", "index.html")) {
            rows.add(row("target " + escape(target), "GET " + target + " HTTP/1.1\r\n" + HOST + "\r\n", 400));
        }
        // well-formed but unsupported versions
        for (String version : List.of("HTTP/1.2", "HTTP/2.0", "HTTP/3.0")) {
            rows.add(row("version " + version, "GET / " + version + "\r\n" + HOST + "\r\n", 505));
        }
        // malformed versions
        for (String version : List.of("HTTP/1", "http/1.1", "HTTP/1.1x", "HTTP/01.1", "HTTP/1.10", "HTTP/1.",
                "HTTP/")) {
            rows.add(row("version " + version, "GET / " + version + "\r\n" + HOST + "\r\n", 400));
        }
        // limits at their defaults (8 KiB request line, 16 KiB header section, 100 fields)
        rows.add(row("request line over 8192 bytes", "GET /" + "a".repeat(8200) + " HTTP/1.1\r\n" + HOST + "\r\n",
                414));
        rows.add(row("header section over 16384 bytes",
                "GET / HTTP/1.1\r\n" + HOST + "X-Big: " + "a".repeat(16400) + "\r\n\r\n", 431));
        StringBuilder manyFields = new StringBuilder("GET / HTTP/1.1\r\n" + HOST);
        for (int i = 0; i < 100; i++) {
            manyFields.append("X-F").append(i).append(": v\r\n");
        }
        rows.add(row("101 header fields", manyFields + "\r\n", 431));
        // bare LF and bare CR anywhere in the head
        rows.add(row("bare LF after request line", "GET / HTTP/1.1\n" + HOST + "\r\n", 400));
        rows.add(row("bare LF after a field", "GET / HTTP/1.1\r\nHost: localhost\nX-A: b\r\n\r\n", 400));
        rows.add(row("bare LF as the empty line", "GET / HTTP/1.1\r\n" + HOST + "\n", 400));
        rows.add(row("only bare LFs", "GET / HTTP/1.1\nHost: localhost\n\n", 400));
        rows.add(row("bare CR after request line", "GET / HTTP/1.1\rHost: localhost\r\n\r\n", 400));
        rows.add(row("bare CR inside a value", "GET / HTTP/1.1\r\n" + HOST + "X-A: a\rb\r\n\r\n", 400));
        rows.add(row("CR CR LF after a field", "GET / HTTP/1.1\r\n" + HOST + "X-A: b\r\r\n\r\n", 400));
        // obs-fold
        rows.add(row("obs-fold with SP", "GET / HTTP/1.1\r\n" + HOST + "X-A: a\r\n b\r\n\r\n", 400));
        rows.add(row("obs-fold with HTAB", "GET / HTTP/1.1\r\n" + HOST + "X-A: a\r\n\tb\r\n\r\n", 400));
        rows.add(row("first field line starts with SP", "GET / HTTP/1.1\r\n " + HOST + "\r\n", 400));
        // whitespace between field name and colon
        rows.add(row("SP before colon in Host", "GET / HTTP/1.1\r\nHost : localhost\r\n\r\n", 400));
        rows.add(row("SP before colon", "GET / HTTP/1.1\r\n" + HOST + "X-A : b\r\n\r\n", 400));
        rows.add(row("HTAB before colon", "GET / HTTP/1.1\r\n" + HOST + "X-A\t: b\r\n\r\n", 400));
        // field names
        for (String line : List.of(": b", "X(A: b", "X A: b", "X\u00e9: b", "X-A b", "X-A", "X\"A: b")) {
            rows.add(row("field line " + escape(line), "GET / HTTP/1.1\r\n" + HOST + line + "\r\n\r\n", 400));
        }
        // control characters in a field value
        for (char c : new char[] {0x00, 0x01, 0x0b, 0x0c, 0x1b, 0x1f, 0x7f}) {
            rows.add(row("value with 0x" + Integer.toHexString(c),
                    "GET / HTTP/1.1\r\n" + HOST + "X-A: a" + c + "b\r\n\r\n", 400));
        }
        // Host
        rows.add(row("HTTP/1.1 without Host", "GET / HTTP/1.1\r\nX-A: b\r\n\r\n", 400));
        rows.add(row("two Host fields", "GET / HTTP/1.1\r\n" + HOST + HOST + "\r\n", 400));
        rows.add(row("two different Host fields", "GET / HTTP/1.1\r\n" + HOST + "Host: other\r\n\r\n", 400));
        for (String host : List.of("a b", "a/b", "user@example.com", "[::1", "example.com:8x", "exa\"mple",
                "a%zz", "a%4", "a%")) {
            rows.add(row("invalid Host " + host, "GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n", 400));
        }
        // Content-Length
        rows.add(row("Content-Length with Transfer-Encoding", "POST / HTTP/1.1\r\n" + HOST
                + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400));
        rows.add(row("Transfer-Encoding with Content-Length", "POST / HTTP/1.1\r\n" + HOST
                + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n", 400));
        rows.add(row("two equal Content-Length fields",
                "POST / HTTP/1.1\r\n" + HOST + "Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello", 400));
        rows.add(row("two different Content-Length fields",
                "POST / HTTP/1.1\r\n" + HOST + "Content-Length: 5\r\nContent-Length: 4\r\n\r\nhello", 400));
        for (String value : List.of("1,1", "5, 5", "abc", "-1", "+5", "0x5", "5 5", "5.0", "",
                "99999999999999999999", "18446744073709551621")) {
            rows.add(row("Content-Length '" + value + "'",
                    "POST / HTTP/1.1\r\n" + HOST + "Content-Length: " + value + "\r\n\r\nhello", 400));
        }
        // Transfer-Encoding
        for (String value : List.of("chunked, gzip", "identity", "chunked, chunked", "gzip", "xchunked")) {
            rows.add(row("Transfer-Encoding '" + value + "'",
                    "POST / HTTP/1.1\r\n" + HOST + "Transfer-Encoding: " + value + "\r\n\r\n0\r\n\r\n", 400));
        }
        for (String value : List.of("gzip, chunked", "deflate, chunked")) {
            rows.add(row("Transfer-Encoding '" + value + "'",
                    "POST / HTTP/1.1\r\n" + HOST + "Transfer-Encoding: " + value + "\r\n\r\n0\r\n\r\n", 501));
        }
        rows.add(row("Transfer-Encoding in HTTP/1.0",
                "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400));
        // Expect
        rows.add(row("Expect: foo", "GET / HTTP/1.1\r\n" + HOST + "Expect: foo\r\n\r\n", 417));
        rows.add(row("Expect: 200-ok with a body",
                "POST / HTTP/1.1\r\n" + HOST + "Expect: 200-ok\r\nContent-Length: 5\r\n\r\nhello", 417));
        // target forms
        rows.add(row("authority-form with GET", "GET localhost:80 HTTP/1.1\r\n" + HOST + "\r\n", 400));
        rows.add(row("origin-form with CONNECT", "CONNECT / HTTP/1.1\r\n" + HOST + "\r\n", 400));
        rows.add(row("asterisk-form with GET", "GET * HTTP/1.1\r\n" + HOST + "\r\n", 400));
        rows.add(row("asterisk-form with POST", "POST * HTTP/1.1\r\n" + HOST + "Content-Length: 0\r\n\r\n", 400));
        return rows.stream();
    }

    @ParameterizedTest(name = "[{index}] {0} -> {2}")
    @MethodSource("malformedHeads")
    void malformedHeadGetsItsErrorStatusAndTheConnectionIsClosed(String description, String request,
                                                                 int expectedStatus) throws IOException {
        try (RawHttpClient client = server.connect()) {
            Response response = client.send(request).readResponse();
            assertEquals(expectedStatus, response.status(), () -> description + "; got\n" + response);
            assertTrue(response.hasConnectionToken("close"), () -> "no Connection: close in\n" + response);
            assertTrue(client.serverClosed(), "connection still open after " + expectedStatus);
        }
        assertServerStillServes();
    }

    @Test
    void aFirstLineThatIsNeitherHttp1NorTheHttp2PrefaceIsClosedWithoutAnAnswer() throws IOException {
        // With h2c on (the default) the port speaks HTTP/1.1 and HTTP/2: bytes that fit neither protocol get
        // no HTTP/1.1 error an HTTP/2 peer would misread (RFC 9113 §3.4 asks for the connection to close).
        for (String line : List.of("INVALID CONNECTION PREFACE", "GET / HTTX/1.1")) {
            try (RawHttpClient client = server.connect()) {
                client.send(line + "\r\n\r\n");
                assertTrue(client.serverClosed(), line);
            }
        }
        assertServerStillServes();
    }

    @Test
    void withoutH2cTheSameLineGetsA400() throws IOException {
        try (TestServer h1Only = TestServer.builder().config(dev.weft.httpserver.config.ServerConfig.builder()
                .http2(dev.weft.httpserver.config.Http2Config.builder().h2cEnabled(false).build()).build()).start();
             RawHttpClient client = h1Only.connect()) {
            Response response = client.send("GET / HTTX/1.1\r\n" + HOST + "\r\n").readResponse();
            assertEquals(400, response.status(), response::toString);
        }
    }

    @Test
    void leadingEmptyLinesBeforeTheRequestLineAreIgnored() throws IOException {
        try (RawHttpClient client = server.connect()) {
            Response response = client.send("\r\n\r\nGET /leading HTTP/1.1\r\n" + HOST + "\r\n").readResponse();
            assertEquals(200, response.status(), response::toString);
            assertTrue(response.bodyText().contains("uri: /leading\n"), response::bodyText);
        }
    }

    @Test
    void emptyLineBetweenKeptAliveRequestsIsIgnored() throws IOException {
        try (RawHttpClient client = server.connect()) {
            client.send("POST /first HTTP/1.1\r\n" + HOST + "Content-Length: 2\r\n\r\nhi\r\n"
                    + "GET /second HTTP/1.1\r\n" + HOST + "\r\n");
            Response first = client.readResponse();
            Response second = client.readResponse();
            assertEquals(200, first.status(), first::toString);
            assertTrue(first.bodyText().contains("body-length: 2\n"), first::bodyText);
            assertEquals(200, second.status(), second::toString);
            assertTrue(second.bodyText().contains("uri: /second\n"), second::bodyText);
        }
    }

    @Test
    void absoluteFormTargetIsAcceptedAndRoutedByItsPathNotTheHostHeader() throws IOException {
        try (RawHttpClient client = server.connect()) {
            Response response = client.send("GET http://example.org/abs/x HTTP/1.1\r\nHost: other.test\r\n\r\n")
                    .readResponse();
            assertEquals(200, response.status(), response::toString);
            assertEquals("abs context", response.bodyText());
            // kept alive: a next request on the connection is served
            Response next = client.send("GET /abs/y HTTP/1.1\r\nHost: other.test\r\n\r\n").readResponse();
            assertEquals("abs context", next.bodyText(), next::toString);
        }
    }

    @Test
    void wellFormedEdgeCasesAreAccepted() throws IOException {
        // HTTP/1.0 needs no Host; HTAB and obs-text are allowed in values; OWS around a value is trimmed.
        for (String request : List.of("GET /ok HTTP/1.0\r\n\r\n",
                "GET /ok HTTP/1.1\r\n" + HOST + "X-A: a\tb\r\n\r\n",
                "GET /ok HTTP/1.1\r\n" + HOST + "X-A: caf\u00e9\r\n\r\n",
                "GET /ok HTTP/1.1\r\nHost:\t localhost \t\r\n\r\n",
                "POST /ok HTTP/1.1\r\n" + HOST + "Content-Length:  5 \r\n\r\nhello",
                "POST /ok HTTP/1.1\r\n" + HOST + "Transfer-Encoding: Chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                "GET /ok%20x?q=%41 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n",
                "GET /ok HTTP/1.1\r\nHost: [::1]:80\r\n\r\n",
                "OPTIONS * HTTP/1.1\r\n" + HOST + "\r\n")) {
            try (RawHttpClient client = server.connect()) {
                Response response = client.send(request).readResponse();
                assertTrue(response.status() != 400 && response.status() < 500,
                        () -> escape(request) + " was rejected:\n" + response);
            }
        }
    }

    @Test
    void rejectionsAreCountedByKindInTheStats() throws IOException {
        StatsSnapshot before = server.stats();
        for (String request : List.of("POST / HTTP/1.1\r\n" + HOST + "Content-Length: abc\r\n\r\n",
                "GET / HTTP/2.0\r\n" + HOST + "\r\n", "GET / HTTP/1.1\r\n\r\n")) {
            try (RawHttpClient client = server.connect()) {
                assertTrue(client.send(request).readResponse().status() >= 400);
            }
        }
        StatsSnapshot after = server.awaitStats(s -> s.protocolErrorsTotal() >= before.protocolErrorsTotal() + 3);
        for (ProtocolError kind : List.of(ProtocolError.BAD_CONTENT_LENGTH, ProtocolError.BAD_VERSION,
                ProtocolError.BAD_HOST)) {
            assertEquals(before.protocolErrors().getOrDefault(kind, 0L) + 1,
                    after.protocolErrors().getOrDefault(kind, 0L), () -> kind + " in " + after);
        }
    }

    private static void assertServerStillServes() throws IOException {
        try (RawHttpClient client = server.connect()) {
            Response response = client.send("GET /after HTTP/1.1\r\n" + HOST + "\r\n").readResponse();
            assertEquals(200, response.status(), response::toString);
            assertTrue(response.bodyText().contains("uri: /after\n"), response::bodyText);
        }
    }

    private static Arguments row(String description, String request, int status) {
        return arguments(description, request, status);
    }

    private static String escape(String s) {
        StringBuilder out = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (c < 0x20 || c >= 0x7f) {
                out.append(String.format("\\x%02x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
