package dev.weft.httpserver.http2;

import dev.weft.httpserver.hpack.HeaderField;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** RFC 9113 §8.2 and §8.3 request header checks, RFC 8441 §4 extended CONNECT, and how the fields reach the API's {@code Headers}. */
class RequestFieldsTest {

    private static List<HeaderField> get(HeaderField... extra) {
        List<HeaderField> f = new ArrayList<>(List.of(new HeaderField(":method", "GET"),
                new HeaderField(":scheme", "https"), new HeaderField(":path", "/a/b?q=1"),
                new HeaderField(":authority", "example.org:8443")));
        f.addAll(List.of(extra));
        return f;
    }

    private static HeaderField h(String name, String value) {
        return new HeaderField(name, value);
    }

    @Test
    void aValidRequestKeepsPathWithQueryAndNormalisesNames() throws Http2StreamException {
        RequestFields r = RequestFields.ofRequest(1, get(h("accept", "*/*"), h("x-trace-id", "7")));
        assertEquals("GET", r.method());
        assertEquals("/a/b?q=1", r.path());
        assertEquals("*/*", r.headers().getFirst("Accept"));
        assertEquals("7", r.headers().getFirst("X-trace-id"));
        assertEquals(-1, r.contentLength());
        assertThrows(UnsupportedOperationException.class, () -> r.headers().add("X", "y"));
    }

    @Test
    void hostComesFromAuthorityWhenAbsent() throws Http2StreamException {
        assertEquals("example.org:8443", RequestFields.ofRequest(1, get()).headers().getFirst("Host"));
        assertEquals("example.org:8443",
                RequestFields.ofRequest(1, get(h("host", "example.org:8443"))).headers().getFirst("Host"));
    }

    @Test
    void cookieCrumbsAreJoinedWithSemicolons() throws Http2StreamException {
        RequestFields r = RequestFields.ofRequest(1, get(h("cookie", "a=1"), h("cookie", "b=2")));
        assertEquals(List.of("a=1; b=2"), r.headers().get("Cookie"));
    }

    @Test
    void contentLengthAndExpectContinueAreRead() throws Http2StreamException {
        RequestFields r = RequestFields.ofRequest(1, get(h("content-length", "42"), h("expect", "100-continue")));
        assertEquals(42, r.contentLength());
        assertTrue(r.expectContinue());
        assertFalse(RequestFields.ofRequest(1, get()).expectContinue());
    }

    @Test
    void connectNeedsOnlyAuthorityAndOptionsMayUseAsterisk() throws Http2StreamException {
        RequestFields c = RequestFields.ofRequest(1, List.of(h(":method", "CONNECT"), h(":authority", "h:443")));
        assertNull(c.path());
        assertEquals("h:443", c.authority());
        RequestFields o = RequestFields.ofRequest(1, List.of(h(":method", "OPTIONS"), h(":scheme", "http"),
                h(":path", "*")));
        assertEquals("*", o.path());
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                arguments("missing :method", List.of(h(":scheme", "http"), h(":path", "/"))),
                arguments("missing :scheme", List.of(h(":method", "GET"), h(":path", "/"))),
                arguments("missing :path", List.of(h(":method", "GET"), h(":scheme", "http"))),
                arguments("empty :path", List.of(h(":method", "GET"), h(":scheme", "http"), h(":path", ""))),
                arguments("relative :path", List.of(h(":method", "GET"), h(":scheme", "http"), h(":path", "a"))),
                arguments("* for GET", List.of(h(":method", "GET"), h(":scheme", "http"), h(":path", "*"))),
                arguments("space in :path", List.of(h(":method", "GET"), h(":scheme", "http"), h(":path", "/a b"))),
                arguments("bad escape", List.of(h(":method", "GET"), h(":scheme", "http"), h(":path", "/%zz"))),
                arguments("duplicate :path", get(h(":path", "/x"))),
                arguments("unknown pseudo", get(h(":foo", "x"))),
                arguments(":status in request", get(h(":status", "200"))),
                arguments("pseudo after regular", List.of(h(":method", "GET"), h(":scheme", "http"),
                        h("accept", "x"), h(":path", "/"))),
                arguments("upper-case name", get(h("Accept", "x"))),
                arguments("space in name", get(h("a b", "x"))),
                arguments("empty name", get(h("", "x"))),
                arguments("CR in value", get(h("x", "a\rb"))),
                arguments("LF in value", get(h("x", "a\nb"))),
                arguments("NUL in value", get(h("x", "a\0b"))),
                arguments("leading space", get(h("x", " a"))),
                arguments("trailing tab", get(h("x", "a\t"))),
                arguments("connection", get(h("connection", "keep-alive"))),
                arguments("keep-alive", get(h("keep-alive", "5"))),
                arguments("proxy-connection", get(h("proxy-connection", "x"))),
                arguments("transfer-encoding", get(h("transfer-encoding", "chunked"))),
                arguments("upgrade", get(h("upgrade", "websocket"))),
                arguments("te gzip", get(h("te", "gzip"))),
                arguments("bad content-length", get(h("content-length", "1x"))),
                arguments("conflicting content-length", get(h("content-length", "1"), h("content-length", "2"))),
                arguments("host differs from :authority", get(h("host", "other.org"))),
                arguments("userinfo in :authority", List.of(h(":method", "GET"), h(":scheme", "http"),
                        h(":path", "/"), h(":authority", "u@h"))),
                arguments("bad escape in :authority", List.of(h(":method", "GET"), h(":scheme", "http"),
                        h(":path", "/"), h(":authority", "a%zz"))),
                arguments("CONNECT with :path", List.of(h(":method", "CONNECT"), h(":authority", "h:1"),
                        h(":path", "/"))),
                arguments("CONNECT without :authority", List.of(h(":method", "CONNECT"))),
                arguments("method not a token", List.of(h(":method", "G T"), h(":scheme", "http"), h(":path", "/"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformedRequestsAreStreamProtocolErrors(String description, List<HeaderField> fields) {
        Http2StreamException e = assertThrows(Http2StreamException.class, () -> RequestFields.ofRequest(5, fields));
        assertEquals(5, e.streamId());
        assertEquals(ErrorCode.PROTOCOL_ERROR, e.errorCode());
    }

    private static List<HeaderField> extendedConnect(HeaderField... pseudo) {
        List<HeaderField> f = new ArrayList<>(List.of(pseudo));
        f.add(h("sec-websocket-version", "13"));
        return f;
    }

    private static RequestFields withExtendedConnect(List<HeaderField> fields) throws Http2StreamException {
        return RequestFields.ofRequest(7, fields, new RequestFields.Checked(), true);
    }

    @Test
    void extendedConnectKeepsPathAuthorityAndProtocol() throws Http2StreamException {
        RequestFields r = withExtendedConnect(extendedConnect(h(":method", "CONNECT"), h(":protocol", "websocket"),
                h(":scheme", "https"), h(":path", "/chat?room=1"), h(":authority", "server.example.com")));
        assertEquals("CONNECT", r.method());
        assertEquals("websocket", r.protocol());
        assertEquals("/chat?room=1", r.path());
        assertEquals("server.example.com", r.headers().getFirst("Host"));
        assertEquals("13", r.headers().getFirst("Sec-websocket-version"));
        assertNull(RequestFields.ofRequest(1, get()).protocol());
    }

    @Test
    void plainConnectIsUnchangedWhenExtendedConnectIsEnabled() throws Http2StreamException {
        RequestFields c = withExtendedConnect(List.of(h(":method", "CONNECT"), h(":authority", "h:443")));
        assertNull(c.path());
        assertNull(c.protocol());
        assertThrows(Http2StreamException.class, () -> withExtendedConnect(List.of(h(":method", "CONNECT"),
                h(":authority", "h:443"), h(":path", "/"))));
    }

    static Stream<Arguments> malformedExtendedConnect() {
        return Stream.of(
                arguments(":protocol on GET", get(h(":protocol", "websocket"))),
                arguments(":protocol on POST", List.of(h(":method", "POST"), h(":protocol", "websocket"),
                        h(":scheme", "http"), h(":path", "/"), h(":authority", "h"))),
                arguments("without :path", List.of(h(":method", "CONNECT"), h(":protocol", "websocket"),
                        h(":scheme", "http"), h(":authority", "h"))),
                arguments("without :scheme", List.of(h(":method", "CONNECT"), h(":protocol", "websocket"),
                        h(":path", "/"), h(":authority", "h"))),
                arguments("without :authority", List.of(h(":method", "CONNECT"), h(":protocol", "websocket"),
                        h(":scheme", "http"), h(":path", "/"))),
                arguments("duplicate :protocol", List.of(h(":method", "CONNECT"), h(":protocol", "websocket"),
                        h(":protocol", "websocket"), h(":scheme", "http"), h(":path", "/"), h(":authority", "h"))),
                arguments("empty :protocol", List.of(h(":method", "CONNECT"), h(":protocol", ""),
                        h(":scheme", "http"), h(":path", "/"), h(":authority", "h"))),
                arguments(":protocol not a token", List.of(h(":method", "CONNECT"), h(":protocol", "web socket"),
                        h(":scheme", "http"), h(":path", "/"), h(":authority", "h"))),
                arguments(":path *", List.of(h(":method", "CONNECT"), h(":protocol", "websocket"),
                        h(":scheme", "http"), h(":path", "*"), h(":authority", "h"))),
                arguments("upgrade field", List.of(h(":method", "CONNECT"), h(":protocol", "websocket"),
                        h(":scheme", "http"), h(":path", "/"), h(":authority", "h"), h("upgrade", "websocket"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedExtendedConnect")
    void malformedExtendedConnectIsStreamProtocolError(String description, List<HeaderField> fields) {
        Http2StreamException e = assertThrows(Http2StreamException.class, () -> withExtendedConnect(fields));
        assertEquals(7, e.streamId());
        assertEquals(ErrorCode.PROTOCOL_ERROR, e.errorCode());
    }

    @Test
    void protocolPseudoHeaderIsUnknownWithoutTheSetting() {
        List<HeaderField> fields = List.of(h(":method", "CONNECT"), h(":protocol", "websocket"),
                h(":scheme", "http"), h(":path", "/"), h(":authority", "h"));
        Http2StreamException e = assertThrows(Http2StreamException.class,
                () -> RequestFields.ofRequest(3, fields, new RequestFields.Checked(), false));
        assertEquals(ErrorCode.PROTOCOL_ERROR, e.errorCode());
    }

    @Test
    void trailersMayNotCarryPseudoHeaders() throws Http2StreamException {
        assertEquals("ok", RequestFields.ofTrailers(3, List.of(h("x-sum", "ok"))).getFirst("X-sum"));
        assertThrows(Http2StreamException.class, () -> RequestFields.ofTrailers(3, List.of(h(":path", "/"))));
    }
}
