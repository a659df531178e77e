package dev.weft.httpserver.http1;

import com.sun.net.httpserver.Headers;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.ConnectionInput;
import dev.weft.httpserver.http1.RequestHead.TargetForm;
import dev.weft.httpserver.stats.ProtocolError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RequestParser} on byte arrays, fed whole and one byte per read.
 *
 * <p>Sizes as the engine measures them: the request line without its CRLF; the header section as every field
 * line with its CRLF plus the CRLF of the empty line that ends it.
 */
class RequestParserTest {

    private static final int MAX_LINE = 64;
    private static final int MAX_HEADER_SIZE = 200;
    private static final int MAX_HEADER_COUNT = 5;
    private static final long MAX_BODY = 1000;

    /** Small limits, so that the limit tests stay readable. */
    private static final ServerConfig LIMITS = ServerConfig.builder()
            .maxRequestLineLength(MAX_LINE)
            .maxHeaderSize(MAX_HEADER_SIZE)
            .maxHeaderCount(MAX_HEADER_COUNT)
            .maxRequestBodySize(MAX_BODY)
            .build();

    private static RequestHead parse(ByteFeed feed, String request) throws Exception {
        return parse(feed, request, ServerConfig.defaults());
    }

    private static RequestHead parse(ByteFeed feed, String request, ServerConfig config) throws Exception {
        RequestHead head = new RequestParser(config).parse(feed.input(request, config));
        if (head == null) {
            throw new AssertionError("parser saw end of stream");
        }
        return head;
    }

    private static BadRequestException reject(ByteFeed feed, String request, ServerConfig config) {
        return assertThrows(BadRequestException.class,
                () -> new RequestParser(config).parse(feed.input(request, config)));
    }

    private static void assertRejected(BadRequestException e, int status, ProtocolError kind) {
        assertAll(
                () -> assertEquals(status, e.status(), "status (" + e.getMessage() + ")"),
                () -> assertEquals(kind, e.kind(), "kind (" + e.getMessage() + ")"));
    }

    /** Field lines (each with CRLF, Host first) whose section, with the final CRLF, is {@code size} bytes. */
    private static String headerSectionOfSize(int size) {
        String host = "Host: x\r\n";
        int filler = size - host.length() - "X-Fill: \r\n".length() - 2;
        return host + "X-Fill: " + "f".repeat(filler) + "\r\n";
    }

    /** {@code count} field lines, Host included. */
    private static String fields(int count) {
        StringBuilder sb = new StringBuilder("Host: x\r\n");
        for (int i = 1; i < count; i++) {
            sb.append("X-").append(i).append(": v\r\n");
        }
        return sb.toString();
    }

    /** {@code GET /aaa... HTTP/1.1} of exactly {@code length} bytes. */
    private static String requestLineOfLength(int length) {
        return "GET /" + "a".repeat(length - "GET / HTTP/1.1".length()) + " HTTP/1.1";
    }

    // ---------------------------------------------------------------- valid requests

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void getWithHeadersYieldsMethodTargetVersionAndFields(ByteFeed feed) throws Exception {
        RequestHead head = parse(feed, "GET /index.html?q=1 HTTP/1.1\r\n"
                + "Host: example.com\r\n"
                + "User-Agent: test/1.0\r\n"
                + "Accept: */*\r\n"
                + "\r\n");

        assertAll(
                () -> assertEquals("GET", head.method()),
                () -> assertEquals("/index.html?q=1", head.target()),
                () -> assertEquals(TargetForm.ORIGIN, head.form()),
                () -> assertEquals(1, head.minorVersion()),
                () -> assertEquals("HTTP/1.1", head.protocol()),
                () -> assertEquals(List.of("example.com"), head.headers().get("Host")),
                () -> assertEquals(List.of("test/1.0"), head.headers().get("User-Agent")),
                () -> assertEquals(List.of("*/*"), head.headers().get("Accept")),
                () -> assertEquals(3, head.headers().size()),
                () -> assertEquals(-1, head.contentLength()),
                () -> assertFalse(head.chunked()),
                () -> assertFalse(head.hasBody()),
                () -> assertFalse(head.expectContinue()),
                () -> assertTrue(head.keepAlive()));
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void postWithContentLengthHasAFixedLengthBody(ByteFeed feed) throws Exception {
        RequestHead head = parse(feed, "POST /submit HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world");

        assertAll(
                () -> assertEquals("POST", head.method()),
                () -> assertEquals(11, head.contentLength()),
                () -> assertFalse(head.chunked()),
                () -> assertTrue(head.hasBody()));
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void contentLengthZeroMeansNoBody(ByteFeed feed) throws Exception {
        RequestHead head = parse(feed, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");

        assertEquals(0, head.contentLength());
        assertFalse(head.hasBody());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void chunkedTransferEncodingMarksTheBodyChunked(ByteFeed feed) throws Exception {
        RequestHead head = parse(feed, "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");

        assertAll(
                () -> assertTrue(head.chunked()),
                () -> assertEquals(-1, head.contentLength()),
                () -> assertTrue(head.hasBody()));
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void transferCodingNamesAreCaseInsensitive(ByteFeed feed) throws Exception {
        assertTrue(parse(feed, "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: CHUNKED\r\n\r\n").chunked());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void http10WithKeepAliveTokenKeepsTheConnection(ByteFeed feed) throws Exception {
        RequestHead head = parse(feed, "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n");

        assertEquals(0, head.minorVersion());
        assertEquals("HTTP/1.0", head.protocol());
        assertTrue(head.keepAlive());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void http10WithoutKeepAliveTokenClosesTheConnection(ByteFeed feed) throws Exception {
        assertFalse(parse(feed, "GET / HTTP/1.0\r\n\r\n").keepAlive());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void http10NeedsNoHost(ByteFeed feed) throws Exception {
        assertTrue(parse(feed, "GET / HTTP/1.0\r\n\r\n").headers().isEmpty());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void connectionCloseTokenInAListClosesAnHttp11Connection(ByteFeed feed) throws Exception {
        assertFalse(parse(feed, "GET / HTTP/1.1\r\nHost: x\r\nConnection: upgrade , CLOSE\r\n\r\n").keepAlive());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void absoluteFormTargetIsAcceptedAsIs(ByteFeed feed) throws Exception {
        RequestHead head = parse(feed, "GET http://example.com:8080/a/b?c=d HTTP/1.1\r\nHost: other\r\n\r\n");

        assertEquals(TargetForm.ABSOLUTE, head.form());
        assertEquals("http://example.com:8080/a/b?c=d", head.target());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void connectWithAuthorityFormTargetIsAccepted(ByteFeed feed) throws Exception {
        RequestHead head = parse(feed, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");

        assertEquals("CONNECT", head.method());
        assertEquals(TargetForm.AUTHORITY, head.form());
        assertEquals("example.com:443", head.target());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void optionsAsteriskIsAccepted(ByteFeed feed) throws Exception {
        RequestHead head = parse(feed, "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n");

        assertEquals(TargetForm.ASTERISK, head.form());
        assertEquals("*", head.target());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void extensionMethodIsAccepted(ByteFeed feed) throws Exception {
        assertEquals("PROPFIND", parse(feed, "PROPFIND /dav HTTP/1.1\r\nHost: x\r\n\r\n").method());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void leadingEmptyLinesAreIgnored(ByteFeed feed) throws Exception {
        RequestHead head = parse(feed, "\r\n\r\n\r\nGET /after-blank-lines HTTP/1.1\r\nHost: x\r\n\r\n");

        assertEquals("/after-blank-lines", head.target());
    }

    @ParameterizedTest
    @MethodSource("fieldNames")
    void fieldNamesAreNormalisedLikeJdkHeadersKeys(String wireName) throws Exception {
        Headers jdk = new Headers();
        jdk.add(wireName, "v");
        String jdkKey = jdk.keySet().iterator().next();

        RequestHead head = parse(ByteFeed.WHOLE, "GET / HTTP/1.1\r\nHost: x\r\n" + wireName + ": v\r\n\r\n");

        assertTrue(head.headers().keySet().contains(jdkKey),
                () -> "expected key " + jdkKey + " in " + head.headers().keySet());
    }

    static Stream<String> fieldNames() {
        return Stream.of("content-type", "CONTENT-LENGTH-X", "X-Custom-Header", "x-CUSTOM-header", "ETag",
                "WWW-Authenticate", "TE", "te", "1st-field", "sec-websocket-KEY", "Accept", "x", "~tilde!");
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void fieldValuesAreTrimmedOfSpacesAndTabsOnBothSides(ByteFeed feed) throws Exception {
        RequestHead head = parse(feed, "GET / HTTP/1.1\r\nHost: x\r\nX-Value: \t a \t b \t \r\n\r\n");

        assertEquals(List.of("a \t b"), head.headers().get("X-value"));
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void fieldValueWithoutAnyWhitespaceAfterTheColonIsKept(ByteFeed feed) throws Exception {
        RequestHead head = parse(feed, "GET / HTTP/1.1\r\nHost:x\r\nX-A:b:c\r\n\r\n");

        assertEquals("x", head.headers().getFirst("Host"));
        assertEquals("b:c", head.headers().getFirst("X-a"));
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void emptyFieldValueIsKeptAsEmptyString(ByteFeed feed) throws Exception {
        RequestHead head = parse(feed, "GET / HTTP/1.1\r\nHost: x\r\nX-Empty:   \r\n\r\n");

        assertEquals(List.of(""), head.headers().get("X-empty"));
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void obsTextInFieldValueIsDecodedAsIso88591(ByteFeed feed) throws Exception {
        byte[] bytes = {'G', 'E', 'T', ' ', '/', ' ', 'H', 'T', 'T', 'P', '/', '1', '.', '1', '\r', '\n',
                'H', 'o', 's', 't', ':', ' ', 'x', '\r', '\n',
                'X', '-', 'N', 'a', 'm', 'e', ':', ' ', 'J', 'o', (byte) 0xEB, 'l', ' ', (byte) 0xFF, '\r', '\n',
                '\r', '\n'};
        ServerConfig config = ServerConfig.defaults();

        RequestHead head = new RequestParser(config).parse(feed.input(bytes, config));

        assertEquals("Jo\u00EBl \u00FF", head.headers().getFirst("X-name"));
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void repeatedFieldKeepsEveryValueInOrder(ByteFeed feed) throws Exception {
        RequestHead head = parse(feed, "GET / HTTP/1.1\r\nHost: x\r\nAccept: a\r\nX-Other: o\r\naccept: b, c\r\n\r\n");

        assertEquals(List.of("a", "b, c"), head.headers().get("Accept"));
    }

    @Test
    void parsedHeadersAreReadOnly() throws Exception {
        Headers headers = parse(ByteFeed.WHOLE, "GET / HTTP/1.1\r\nHost: x\r\n\r\n").headers();

        assertThrows(UnsupportedOperationException.class, () -> headers.add("X-New", "v"));
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void emptyHostIsAcceptedWhenTheTargetCarriesTheAuthority(ByteFeed feed) throws Exception {
        // RFC 9112 §3.2.2: an absolute-form target's authority wins over Host.
        assertEquals("", parse(feed, "GET http://a.example/ HTTP/1.1\r\nHost:\r\n\r\n").headers().getFirst("Host"));
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void ipv6HostWithPortIsAccepted(ByteFeed feed) throws Exception {
        assertEquals("[::1]:8080", parse(feed, "GET / HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n").headers().getFirst("Host"));
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void expect100ContinueWithBodyAsksForContinue(ByteFeed feed) throws Exception {
        RequestHead head = parse(feed,
                "PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-Continue\r\n\r\n");

        assertTrue(head.expectContinue());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void expect100ContinueWithoutBodyAsksForNothing(ByteFeed feed) throws Exception {
        assertFalse(parse(feed, "GET / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n").expectContinue());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void http10ExpectationIsIgnored(ByteFeed feed) throws Exception {
        RequestHead head = parse(feed, "POST / HTTP/1.0\r\nContent-Length: 3\r\nExpect: something-else\r\n\r\n");

        assertFalse(head.expectContinue());
        assertEquals(3, head.contentLength());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void http10Expect100ContinueIsIgnored(ByteFeed feed) throws Exception {
        assertFalse(parse(feed, "POST / HTTP/1.0\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n")
                .expectContinue());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void contentLengthExactlyAtTheBodyLimitIsAccepted(ByteFeed feed) throws Exception {
        RequestHead head = parse(feed, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: " + MAX_BODY + "\r\n\r\n", LIMITS);

        assertEquals(MAX_BODY, head.contentLength());
    }

    // ---------------------------------------------------------------- limits exactly at the limit

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void requestLineExactlyAtTheLimitIsAccepted(ByteFeed feed) throws Exception {
        String line = requestLineOfLength(MAX_LINE);

        RequestHead head = parse(feed, line + "\r\nHost: x\r\n\r\n", LIMITS);

        assertEquals(MAX_LINE, line.length());
        assertEquals(MAX_LINE - "GET  HTTP/1.1".length(), head.target().length());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void headerSectionExactlyAtTheLimitIsAccepted(ByteFeed feed) throws Exception {
        String section = headerSectionOfSize(MAX_HEADER_SIZE);

        RequestHead head = parse(feed, "GET / HTTP/1.1\r\n" + section + "\r\n", LIMITS);

        assertEquals(MAX_HEADER_SIZE, (section + "\r\n").length());
        assertEquals(2, head.headers().size());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void headerCountExactlyAtTheLimitIsAccepted(ByteFeed feed) throws Exception {
        RequestHead head = parse(feed, "GET / HTTP/1.1\r\n" + fields(MAX_HEADER_COUNT) + "\r\n", LIMITS);

        assertEquals(MAX_HEADER_COUNT, head.headers().size());
    }

    // ---------------------------------------------------------------- stream handling

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void twoRequestsInOneBufferParseOneAfterTheOther(ByteFeed feed) throws Exception {
        ServerConfig config = ServerConfig.defaults();
        ConnectionInput in = feed.input("GET /first HTTP/1.1\r\nHost: a\r\n\r\n"
                + "POST /second HTTP/1.1\r\nHost: b\r\nContent-Length: 0\r\n\r\n", config);
        RequestParser parser = new RequestParser(config);

        RequestHead first = parser.parse(in);
        RequestHead second = parser.parse(in);

        assertAll(
                () -> assertEquals("/first", first.target()),
                () -> assertEquals("a", first.headers().getFirst("Host")),
                () -> assertEquals("/second", second.target()),
                () -> assertEquals("POST", second.method()),
                () -> assertEquals("b", second.headers().getFirst("Host")),
                () -> assertNull(parser.parse(in), "end of stream after the second request"));
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void parserStopsRightAfterTheHeadLeavingTheBodyUnread(ByteFeed feed) throws Exception {
        ServerConfig config = ServerConfig.defaults();
        ConnectionInput in = feed.input("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nbody", config);

        new RequestParser(config).parse(in);

        assertEquals("body", new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII));
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void endOfStreamBeforeAnyByteYieldsNull(ByteFeed feed) throws Exception {
        ServerConfig config = ServerConfig.defaults();

        assertNull(new RequestParser(config).parse(feed.input("", config)));
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void endOfStreamInsideTheRequestLineIsAnEofException(ByteFeed feed) {
        ServerConfig config = ServerConfig.defaults();

        assertThrows(EOFException.class, () -> new RequestParser(config).parse(feed.input("GET / HTT", config)));
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void endOfStreamInsideTheHeaderSectionIsAnEofException(ByteFeed feed) {
        ServerConfig config = ServerConfig.defaults();

        assertThrows(EOFException.class,
                () -> new RequestParser(config).parse(feed.input("GET / HTTP/1.1\r\nHost: x\r\n", config)));
    }

    // ---------------------------------------------------------------- invalid requests

    /** One malformed or unacceptable request and the answer it must get. */
    record Invalid(String name, String request, int status, ProtocolError kind, ServerConfig config) {
        Invalid(String name, String request, int status, ProtocolError kind) {
            this(name, request, status, kind, ServerConfig.defaults());
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static final String GET = "GET / HTTP/1.1\r\nHost: x\r\n";

    static List<Invalid> invalidRequests() {
        List<Invalid> t = new ArrayList<>();
        // line endings
        t.add(new Invalid("bare LF ends the request line", "GET / HTTP/1.1\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_REQUEST_LINE));
        t.add(new Invalid("bare LF ends a field line", "GET / HTTP/1.1\r\nHost: x\n\r\n", 400, ProtocolError.BAD_HEADER));
        t.add(new Invalid("bare LF ends the header section", GET + "\n", 400, ProtocolError.BAD_HEADER));
        t.add(new Invalid("bare LF as a leading empty line", "\nGET / HTTP/1.1\r\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_REQUEST_LINE));
        t.add(new Invalid("bare CR in the request line", "GET /\r HTTP/1.1\r\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_REQUEST_LINE));
        t.add(new Invalid("bare CR in a field value", GET + "X-A: a\rb\r\n\r\n", 400, ProtocolError.BAD_HEADER));
        t.add(new Invalid("bare CR as the last line", GET + "\r\r\n", 400, ProtocolError.BAD_HEADER));
        // request line
        t.add(new Invalid("two spaces after the method", "GET  / HTTP/1.1\r\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_REQUEST_LINE));
        t.add(new Invalid("tab instead of space", "GET\t/ HTTP/1.1\r\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_REQUEST_LINE));
        t.add(new Invalid("leading space", " GET / HTTP/1.1\r\nHost: x\r\n\r\n", 400, ProtocolError.BAD_REQUEST_LINE));
        t.add(new Invalid("missing version", "GET /\r\nHost: x\r\n\r\n", 400, ProtocolError.BAD_REQUEST_LINE));
        t.add(new Invalid("method only", "GET\r\nHost: x\r\n\r\n", 400, ProtocolError.BAD_REQUEST_LINE));
        t.add(new Invalid("non-token method", "GE(T / HTTP/1.1\r\nHost: x\r\n\r\n", 400, ProtocolError.BAD_REQUEST_LINE));
        t.add(new Invalid("too many empty lines first", "\r\n".repeat(40) + GET + "\r\n", 400,
                ProtocolError.BAD_REQUEST_LINE, LIMITS));
        // version
        t.add(new Invalid("HTTP/1.2", "GET / HTTP/1.2\r\nHost: x\r\n\r\n", 505, ProtocolError.BAD_VERSION));
        t.add(new Invalid("HTTP/2.0", "GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505, ProtocolError.BAD_VERSION));
        t.add(new Invalid("HTTP/3.0", "GET / HTTP/3.0\r\nHost: x\r\n\r\n", 505, ProtocolError.BAD_VERSION));
        t.add(new Invalid("HTTP/0.9", "GET / HTTP/0.9\r\n\r\n", 505, ProtocolError.BAD_VERSION));
        t.add(new Invalid("HTTP/1", "GET / HTTP/1\r\nHost: x\r\n\r\n", 400, ProtocolError.BAD_VERSION));
        t.add(new Invalid("lower-case http/1.1", "GET / http/1.1\r\nHost: x\r\n\r\n", 400, ProtocolError.BAD_VERSION));
        t.add(new Invalid("HTTP/1.1x", "GET / HTTP/1.1x\r\nHost: x\r\n\r\n", 400, ProtocolError.BAD_VERSION));
        t.add(new Invalid("HTTP/01.1", "GET / HTTP/01.1\r\nHost: x\r\n\r\n", 400, ProtocolError.BAD_VERSION));
        t.add(new Invalid("trailing space after the version", "GET / HTTP/1.1 \r\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_VERSION));
        // target
        t.add(new Invalid("double quote in target", "GET /a\"b HTTP/1.1\r\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_REQUEST_TARGET));
        t.add(new Invalid("angle bracket in target", "GET /<a> HTTP/1.1\r\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_REQUEST_TARGET));
        t.add(new Invalid("fragment in target", "GET /a#b HTTP/1.1\r\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_REQUEST_TARGET));
        t.add(new Invalid("non-ASCII byte in target", "GET /caf\u00e9 HTTP/1.1\r\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_REQUEST_TARGET));
        t.add(new Invalid("control byte in target", "GET /a\u0001 HTTP/1.1\r\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_REQUEST_TARGET));
        t.add(new Invalid("bad percent escape", "GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_REQUEST_TARGET));
        t.add(new Invalid("truncated percent escape", "GET /a%4 HTTP/1.1\r\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_REQUEST_TARGET));
        t.add(new Invalid("authority-form with GET", "GET example.com:80 HTTP/1.1\r\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_REQUEST_TARGET));
        t.add(new Invalid("origin-form with CONNECT", "CONNECT /a HTTP/1.1\r\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_REQUEST_TARGET));
        t.add(new Invalid("CONNECT without port", "CONNECT example.com HTTP/1.1\r\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_REQUEST_TARGET));
        t.add(new Invalid("asterisk with GET", "GET * HTTP/1.1\r\nHost: x\r\n\r\n", 400, ProtocolError.BAD_REQUEST_TARGET));
        t.add(new Invalid("absolute-form with ftp scheme", "GET ftp://example.com/ HTTP/1.1\r\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_REQUEST_TARGET));
        t.add(new Invalid("absolute-form with userinfo", "GET http://u@example.com/ HTTP/1.1\r\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_REQUEST_TARGET));
        // field lines
        t.add(new Invalid("obs-fold with space", GET + "X-A: a\r\n b\r\n\r\n", 400, ProtocolError.BAD_HEADER));
        t.add(new Invalid("obs-fold with tab", GET + "X-A: a\r\n\tb\r\n\r\n", 400, ProtocolError.BAD_HEADER));
        t.add(new Invalid("whitespace before the first field", "GET / HTTP/1.1\r\n Host: x\r\n\r\n",
                400, ProtocolError.BAD_HEADER));
        t.add(new Invalid("space before colon", "GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400, ProtocolError.BAD_HEADER));
        t.add(new Invalid("tab before colon", GET + "X-A\t: a\r\n\r\n", 400, ProtocolError.BAD_HEADER));
        t.add(new Invalid("empty field name", GET + ": a\r\n\r\n", 400, ProtocolError.BAD_HEADER));
        t.add(new Invalid("line without colon", GET + "NoColon\r\n\r\n", 400, ProtocolError.BAD_HEADER));
        t.add(new Invalid("non-token field name", GET + "X(A): a\r\n\r\n", 400, ProtocolError.BAD_HEADER));
        t.add(new Invalid("NUL in field value", GET + "X-A: a\u0000b\r\n\r\n", 400, ProtocolError.BAD_HEADER));
        t.add(new Invalid("DEL in field value", GET + "X-A: a\u007fb\r\n\r\n", 400, ProtocolError.BAD_HEADER));
        t.add(new Invalid("escape in field value", GET + "X-A: \u001b[0m\r\n\r\n", 400, ProtocolError.BAD_HEADER));
        // Host
        t.add(new Invalid("HTTP/1.1 without Host", "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", 400, ProtocolError.BAD_HOST));
        t.add(new Invalid("absolute-form without Host", "GET http://example.com/ HTTP/1.1\r\n\r\n",
                400, ProtocolError.BAD_HOST));
        t.add(new Invalid("two Host fields", GET + "Host: y\r\n\r\n", 400, ProtocolError.BAD_HOST));
        t.add(new Invalid("two equal Host fields in HTTP/1.0", "GET / HTTP/1.0\r\nHost: x\r\nHost: x\r\n\r\n",
                400, ProtocolError.BAD_HOST));
        t.add(new Invalid("Host with space", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400, ProtocolError.BAD_HOST));
        t.add(new Invalid("Host with userinfo", "GET / HTTP/1.1\r\nHost: u@x\r\n\r\n", 400, ProtocolError.BAD_HOST));
        t.add(new Invalid("Host with path", "GET / HTTP/1.1\r\nHost: x/y\r\n\r\n", 400, ProtocolError.BAD_HOST));
        t.add(new Invalid("Host with non-numeric port", "GET / HTTP/1.1\r\nHost: x:http\r\n\r\n",
                400, ProtocolError.BAD_HOST));
        // Content-Length and Transfer-Encoding
        t.add(new Invalid("Content-Length with Transfer-Encoding",
                GET + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", 400, ProtocolError.BAD_TRANSFER_ENCODING));
        t.add(new Invalid("Transfer-Encoding with Content-Length",
                GET + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n", 400, ProtocolError.BAD_TRANSFER_ENCODING));
        t.add(new Invalid("two equal Content-Length fields", GET + "Content-Length: 5\r\nContent-Length: 5\r\n\r\n",
                400, ProtocolError.BAD_CONTENT_LENGTH));
        t.add(new Invalid("two different Content-Length fields", GET + "Content-Length: 5\r\nContent-Length: 6\r\n\r\n",
                400, ProtocolError.BAD_CONTENT_LENGTH));
        t.add(new Invalid("Content-Length list", GET + "Content-Length: 1,1\r\n\r\n", 400, ProtocolError.BAD_CONTENT_LENGTH));
        t.add(new Invalid("non-numeric Content-Length", GET + "Content-Length: abc\r\n\r\n",
                400, ProtocolError.BAD_CONTENT_LENGTH));
        t.add(new Invalid("negative Content-Length", GET + "Content-Length: -1\r\n\r\n", 400, ProtocolError.BAD_CONTENT_LENGTH));
        t.add(new Invalid("signed Content-Length", GET + "Content-Length: +5\r\n\r\n", 400, ProtocolError.BAD_CONTENT_LENGTH));
        t.add(new Invalid("empty Content-Length", GET + "Content-Length:\r\n\r\n", 400, ProtocolError.BAD_CONTENT_LENGTH));
        t.add(new Invalid("hex Content-Length", GET + "Content-Length: 0x10\r\n\r\n", 400, ProtocolError.BAD_CONTENT_LENGTH));
        t.add(new Invalid("overflowing Content-Length", GET + "Content-Length: 99999999999999999999\r\n\r\n",
                400, ProtocolError.BAD_CONTENT_LENGTH));
        t.add(new Invalid("Transfer-Encoding chunked, gzip", GET + "Transfer-Encoding: chunked, gzip\r\n\r\n",
                400, ProtocolError.BAD_TRANSFER_ENCODING));
        t.add(new Invalid("Transfer-Encoding identity", GET + "Transfer-Encoding: identity\r\n\r\n",
                400, ProtocolError.BAD_TRANSFER_ENCODING));
        t.add(new Invalid("Transfer-Encoding chunked, chunked", GET + "Transfer-Encoding: chunked, chunked\r\n\r\n",
                400, ProtocolError.BAD_TRANSFER_ENCODING));
        t.add(new Invalid("Transfer-Encoding chunked in two fields",
                GET + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", 400, ProtocolError.BAD_TRANSFER_ENCODING));
        t.add(new Invalid("empty Transfer-Encoding", GET + "Transfer-Encoding:\r\n\r\n", 400, ProtocolError.BAD_TRANSFER_ENCODING));
        t.add(new Invalid("Transfer-Encoding gzip, chunked", GET + "Transfer-Encoding: gzip, chunked\r\n\r\n",
                501, ProtocolError.BAD_TRANSFER_ENCODING));
        t.add(new Invalid("Transfer-Encoding gzip then chunked in two fields",
                GET + "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n", 501, ProtocolError.BAD_TRANSFER_ENCODING));
        t.add(new Invalid("Transfer-Encoding in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
                400, ProtocolError.BAD_TRANSFER_ENCODING));
        t.add(new Invalid("Content-Length over the body limit", GET + "Content-Length: " + (MAX_BODY + 1) + "\r\n\r\n",
                413, ProtocolError.BODY_TOO_LARGE, LIMITS));
        // Expect
        t.add(new Invalid("Expect other than 100-continue", GET + "Content-Length: 1\r\nExpect: 200-ok\r\n\r\n",
                417, ProtocolError.EXPECTATION_FAILED));
        t.add(new Invalid("Expect other than 100-continue without body", GET + "Expect: something\r\n\r\n",
                417, ProtocolError.EXPECTATION_FAILED));
        t.add(new Invalid("empty Host with an origin-form target", "GET / HTTP/1.1\r\nHost:\r\n\r\n",
                400, ProtocolError.BAD_HOST));
        t.add(new Invalid("empty Host of only whitespace", "GET / HTTP/1.1\r\nHost:   \r\n\r\n",
                400, ProtocolError.BAD_HOST));
        t.add(new Invalid("empty Host with an asterisk-form target", "OPTIONS * HTTP/1.1\r\nHost:\r\n\r\n",
                400, ProtocolError.BAD_HOST));
        t.add(new Invalid("empty Host with an authority-form target", "CONNECT a.example:443 HTTP/1.1\r\nHost:\r\n\r\n",
                400, ProtocolError.BAD_HOST));
        t.add(new Invalid("empty Host in HTTP/1.0", "GET / HTTP/1.0\r\nHost:\r\n\r\n", 400, ProtocolError.BAD_HOST));
        // limits, one over
        t.add(new Invalid("method longer than the request-line limit", "M".repeat(MAX_LINE + 1) + " / HTTP/1.1\r\n\r\n",
                501, ProtocolError.BAD_REQUEST_LINE, LIMITS));
        t.add(new Invalid("request line of no method over the limit", "{".repeat(MAX_LINE + 1) + "\r\n\r\n",
                400, ProtocolError.BAD_REQUEST_LINE, LIMITS));
        t.add(new Invalid("request line one byte over the limit", requestLineOfLength(MAX_LINE + 1) + "\r\nHost: x\r\n\r\n",
                414, ProtocolError.REQUEST_LINE_TOO_LONG, LIMITS));
        t.add(new Invalid("request line far over the limit", requestLineOfLength(10 * MAX_LINE) + "\r\nHost: x\r\n\r\n",
                414, ProtocolError.REQUEST_LINE_TOO_LONG, LIMITS));
        t.add(new Invalid("header section one byte over the limit",
                "GET / HTTP/1.1\r\n" + headerSectionOfSize(MAX_HEADER_SIZE + 1) + "\r\n",
                431, ProtocolError.HEADERS_TOO_LARGE, LIMITS));
        t.add(new Invalid("one field line longer than the header limit",
                "GET / HTTP/1.1\r\n" + headerSectionOfSize(3 * MAX_HEADER_SIZE) + "\r\n",
                431, ProtocolError.HEADERS_TOO_LARGE, LIMITS));
        t.add(new Invalid("one field more than the count limit",
                "GET / HTTP/1.1\r\n" + fields(MAX_HEADER_COUNT + 1) + "\r\n", 431, ProtocolError.HEADERS_TOO_LARGE, LIMITS));
        return t;
    }

    static Stream<Arguments> invalidRequestsByFeed() {
        return invalidRequests().stream()
                .flatMap(i -> Stream.of(ByteFeed.values()).map(f -> Arguments.of(i, f)));
    }

    @ParameterizedTest(name = "{0} ({1})")
    @MethodSource("invalidRequestsByFeed")
    void invalidRequestIsRejectedWithItsStatusAndKind(Invalid c, ByteFeed feed) {
        assertRejected(reject(feed, c.request(), c.config()), c.status(), c.kind());
    }

    @Test
    void headerSectionOfExactlyTheLimitCountsTheFinalEmptyLine() {
        // The same fields fit when the limit is MAX_HEADER_SIZE, but not one byte less: the final CRLF counts.
        ServerConfig oneLess = LIMITS.toBuilder().maxHeaderSize(MAX_HEADER_SIZE - 1).build();
        String request = "GET / HTTP/1.1\r\n" + headerSectionOfSize(MAX_HEADER_SIZE) + "\r\n";

        assertRejected(reject(ByteFeed.WHOLE, request, oneLess), 431, ProtocolError.HEADERS_TOO_LARGE);
    }

    @Test
    void invalidRequestLineIsReportedBeforeAnyFieldIsRead() {
        // A bad request line fails even though the head never ends.
        assertRejected(reject(ByteFeed.WHOLE, "GET / HTTP/2.0\r\nHost: x\r\n", ServerConfig.defaults()),
                505, ProtocolError.BAD_VERSION);
    }

    @Test
    void oversizedRequestLineIsReportedWithoutWaitingForItsEnd() {
        // No LF ever arrives: the parser must give up once the limit is passed, not wait for more bytes.
        String endless = "GET /" + "a".repeat(MAX_LINE * 2);

        assertRejected(reject(ByteFeed.ONE_BYTE_PER_READ, endless, LIMITS), 414, ProtocolError.REQUEST_LINE_TOO_LONG);
    }

    @Test
    void stateOfOneHeadDoesNotLeakIntoTheNext() throws IOException, BadRequestException {
        // One parser instance serves a whole connection: state from one head must not leak into the next.
        ServerConfig config = ServerConfig.defaults();
        ConnectionInput in = ByteFeed.WHOLE.input("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
                + "Expect: 100-continue\r\nConnection: close\r\n\r\n"
                + "GET /b HTTP/1.1\r\nHost: x\r\n\r\n", config);
        RequestParser parser = new RequestParser(config);
        parser.parse(in);

        RequestHead second = parser.parse(in);

        assertAll(
                () -> assertTrue(second.keepAlive()),
                () -> assertEquals(-1, second.contentLength()),
                () -> assertFalse(second.expectContinue()),
                () -> assertEquals(1, second.headers().size()));
    }
}
