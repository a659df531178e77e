package dev.weft.httpserver.http2;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.http2.PythonH2.Outcome;
import dev.weft.httpserver.http2.PythonH2.Req;
import dev.weft.httpserver.http2.PythonH2.Stream;
import dev.weft.httpserver.testing.ExternalTools;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What a handler sees and what a client gets over HTTP/2, checked with raw HTTP/2 clients (Python h2, curl,
 * nghttp) on cleartext and TLS: request URI and protocol, status codes, HEAD/204/304 without bodies, Date,
 * handler exceptions before and after the headers, and request trailers.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class Http2ExchangeSemanticsClientTest {

    private static Http2TestServers servers;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void start() throws IOException {
        servers = Http2TestServers.start(ServerConfig.defaults(), Http2TestRoutes.all());
    }

    @AfterAll
    static void stop() {
        if (servers != null) {
            servers.close();
        }
    }

    private static Outcome send(boolean tls, Req... requests) {
        Outcome o = PythonH2.requests(servers.port(tls), tls, requests);
        assertNull(o.error(), () -> "h2 refused what the server sent: " + o);
        return o;
    }

    /** A response that ended normally (END_STREAM, no reset) with this status. */
    private static void assertCompleted(int status, Stream s, Outcome o) {
        assertEquals(status, s.status(), o::toString);
        assertTrue(s.ended(), () -> "stream did not end normally: " + o);
        assertNull(s.reset(), o::toString);
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void requestUriKeepsTheQueryAndProtocolIsHttp2(boolean tls) {
        Outcome o = send(tls, Req.get("/echo/p%20q?a=1&b=x%20y&c"));
        Stream s = o.stream(0);
        assertCompleted(200, s, o);
        assertTrue(s.body().contains("uri: /echo/p%20q?a=1&b=x%20y&c\n"), o::toString);
        assertTrue(s.body().contains("protocol: HTTP/2.0\n"), o::toString);
        assertTrue(s.body().contains("method: GET\n"), o::toString);
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void statusOfTheHandlerIsSent(boolean tls) {
        Outcome o = send(tls, Req.get("/status?code=500&length=6"), Req.get("/status?code=404&length=-1"),
                Req.get("/status?code=201&length=3"));
        assertCompleted(500, o.stream(0), o);
        assertEquals("xxxxxx", o.stream(0).body());
        assertCompleted(404, o.stream(1), o);
        assertEquals(0, o.stream(1).bodyLength());
        assertCompleted(201, o.stream(2), o);
        assertEquals("xxx", o.stream(2).body());
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void headGetsTheHeadersWithContentLengthAndNoBody(boolean tls) {
        Outcome o = send(tls, Req.of("HEAD", "/head"), Req.get("/head"));
        Stream head = o.stream(0);
        assertCompleted(200, head, o);
        assertEquals("5", head.header("content-length"), o::toString);
        assertEquals(0, head.bodyLength(), o::toString);
        Stream get = o.stream(1);
        assertCompleted(200, get, o);
        assertEquals("hello", get.body());
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void noContentAndNotModifiedCarryNoBody(boolean tls) {
        Outcome o = send(tls, Req.get("/status?code=204&length=-1"), Req.get("/status?code=204&length=0"),
                Req.get("/status?code=304&length=-1"));
        for (int i = 0; i < 3; i++) {
            Stream s = o.stream(i);
            assertCompleted(i < 2 ? 204 : 304, s, o);
            assertEquals(0, s.bodyLength(), o::toString);
        }
        assertNull(o.stream(0).header("content-length"), () -> "204 with Content-Length: " + o);
        assertNull(o.stream(1).header("content-length"), () -> "204 with Content-Length: " + o);
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void everyResponseHasADateHeader(boolean tls) {
        Outcome o = send(tls, Req.get("/"), Req.get("/status?code=204"), Req.get("/throw-before"));
        for (Stream s : o.streams()) {
            String date = s.header("date");
            assertNotNull(date, () -> "no date header: " + o);
            try {
                ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME);
            } catch (DateTimeParseException e) {
                fail("date is not an IMF-fixdate: " + date);
            }
            assertTrue(date.endsWith(" GMT"), date);
        }
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void handlerExceptionBeforeTheHeadersGives500AndTheConnectionGoesOn(boolean tls) {
        Outcome o = send(tls, Req.get("/throw-before"), Req.get("/echo?after=1").delay(0.3));
        assertCompleted(500, o.stream(0), o);
        assertCompleted(200, o.stream(1), o);
        assertTrue(o.goaways().isEmpty(), o::toString);
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void handlerExceptionAfterTheHeadersResetsOnlyThatStream(boolean tls) {
        Outcome o = send(tls, Req.get("/throw-after"), Req.get("/echo?beside=1"), Req.get("/echo?later=1").delay(0.5));
        Stream failed = o.stream(0);
        assertEquals(200, failed.status(), o::toString);
        assertEquals(Integer.valueOf(2), failed.reset(), () -> "expected RST_STREAM INTERNAL_ERROR (2): " + o);
        assertFalse(failed.ended(), () -> "a truncated response must not end normally: " + o);
        assertCompleted(200, o.stream(1), o);
        assertCompleted(200, o.stream(2), o);
        assertTrue(o.stream(2).body().contains("uri: /echo?later=1\n"), o::toString);
        assertTrue(o.goaways().isEmpty(), o::toString);
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void curlSeesTheResetOfAHandlerFailingAfterTheHeaders(boolean tls) {
        Http2Cli.Curl r = Http2Cli.curl(tls, servers.url(tls, "/throw-after"));
        assertNotEquals(0, r.exit(), () -> "curl took a truncated response for a complete one: " + r);
        assertTrue(r.result().stderr().contains("INTERNAL_ERROR"), r::toString);
        // the server is fine for the next request
        Http2Cli.Curl next = Http2Cli.curl(tls, servers.url(tls, "/echo?next=1"));
        assertEquals(0, next.exit(), next::toString);
        assertEquals("2", next.httpVersion(), next::toString);
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void requestTrailersReachTheHandlerFromPythonH2(boolean tls) {
        Outcome o = send(tls, Req.of("POST", "/trailers").bodyText("hello").trailer("x-checksum", "abc")
                .trailer("x-count", "5"));
        assertCompleted(200, o.stream(0), o);
        assertEquals("body-length: 5\nx-checksum: abc\nx-count: 5\n", o.stream(0).body());

        // trailers right after the headers: no DATA at all
        Outcome empty = send(tls, Req.of("POST", "/trailers").trailer("x-only", "1"));
        assertCompleted(200, empty.stream(0), empty);
        assertEquals("body-length: 0\nx-only: 1\n", empty.stream(0).body());
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void requestTrailersReachTheHandlerFromNghttp(boolean tls) throws IOException {
        Path body = tmp.resolve("trailer-body.txt");
        Files.writeString(body, "0123456789", StandardCharsets.US_ASCII);
        ExternalTools.Result r = Http2Cli.nghttp(servers.url(tls, "/trailers"), "-d", body.toString(),
                "--trailer", "x-sum: 45");
        assertEquals(0, r.exit(), r::describe);
        assertEquals("body-length: 10\nx-sum: 45\n", r.stdout(), r::describe);
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void responseTrailersReachTheClient(boolean tls) {
        Outcome o = send(tls, Req.get("/response-trailers?fixed=false"), Req.get("/response-trailers?fixed=true"));
        for (Stream s : o.streams()) {
            assertCompleted(200, s, o);
            assertEquals("body", s.body(), o::toString);
            assertEquals(List.of(List.of("x-digest", "abc"), List.of("x-rows", "3")), s.trailers(), o::toString);
        }
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void responseTrailersReachNghttp(boolean tls) {
        ExternalTools.Result r = Http2Cli.nghttp(servers.url(tls, "/response-trailers"), "-v");
        assertEquals(0, r.exit(), r::describe);
        assertTrue(java.util.regex.Pattern.compile("recv \\(stream_id=\\d+\\) x-digest: abc").matcher(r.stdout()).find(),
                r::describe);
        assertTrue(java.util.regex.Pattern.compile("recv \\(stream_id=\\d+\\) x-rows: 3").matcher(r.stdout()).find(),
                r::describe);
    }

    /**
     * Connection-specific fields a handler sets are not sent over HTTP/2 (a client must treat them as malformed,
     * RFC 9113 section 8.2.2; Python h2 does), and field names go out in lower case.
     */
    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void connectionSpecificResponseFieldsAreDropped(boolean tls) {
        Outcome o = send(tls, Req.get("/hop-headers"), Req.get("/echo?after=1").delay(0.2));
        Stream s = o.stream(0);
        assertCompleted(200, s, o);
        assertEquals("ok", s.body());
        assertEquals("kept", s.header("x-mixed-case"), o::toString);
        for (String name : List.of("connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade")) {
            assertNull(s.header(name), () -> name + " sent over HTTP/2: " + o);
        }
        assertCompleted(200, o.stream(1), o);
    }

    /** The streams of one connection are independent: many at once, each with its own answer. */
    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void concurrentStreamsEachGetTheirOwnAnswer(boolean tls) {
        Req[] reqs = new Req[60];
        for (int i = 0; i < reqs.length; i++) {
            reqs[i] = i % 3 == 0 ? Req.of("POST", "/sha256").bodySize(10_000L * i)
                    : Req.get("/echo?stream=" + i);
        }
        Outcome o = send(tls, reqs);
        List<Stream> streams = o.streams();
        for (int i = 0; i < reqs.length; i++) {
            Stream s = streams.get(i);
            assertCompleted(200, s, o);
            if (i % 3 == 0) {
                assertEquals(Http2TestRoutes.patternDigest(10_000L * i), s.body());
            } else {
                assertTrue(s.body().contains("uri: /echo?stream=" + i + "\n"), s.body());
            }
        }
    }
}
