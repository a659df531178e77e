package dev.weft.httpserver.websocket;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import dev.weft.httpserver.ExchangeAttributes;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The RFC 8441 handshake on an exchange as the HTTP/2 layer presents it (no server needed). */
class Rfc8441HandshakeTest {

    /** An HTTP/2 exchange: method, :protocol attribute and fields as given; records the answer. */
    static final class H2Exchange extends HttpExchange {
        final Headers request = new Headers();
        final Headers response = new Headers();
        final Map<String, Object> attributes = new HashMap<>();
        final String method;
        int status = -1;

        H2Exchange(String method, String protocol) {
            this.method = method;
            if (protocol != null) {
                attributes.put(ExchangeAttributes.CONNECT_PROTOCOL, protocol);
            }
        }

        @Override public Headers getRequestHeaders() { return request; }
        @Override public Headers getResponseHeaders() { return response; }
        @Override public URI getRequestURI() { return URI.create("/chat"); }
        @Override public String getRequestMethod() { return method; }
        @Override public HttpContext getHttpContext() { return null; }
        @Override public void close() { }
        @Override public InputStream getRequestBody() { return new ByteArrayInputStream(new byte[0]); }
        @Override public OutputStream getResponseBody() { return new ByteArrayOutputStream(); }
        @Override public void sendResponseHeaders(int rCode, long responseLength) { status = rCode; }
        @Override public InetSocketAddress getRemoteAddress() { return null; }
        @Override public int getResponseCode() { return status; }
        @Override public InetSocketAddress getLocalAddress() { return null; }
        @Override public String getProtocol() { return "HTTP/2.0"; }
        @Override public Object getAttribute(String name) { return attributes.get(name); }
        @Override public void setAttribute(String name, Object value) { attributes.put(name, value); }
        @Override public void setStreams(InputStream i, OutputStream o) { }
        @Override public HttpPrincipal getPrincipal() { return null; }
    }

    @Test
    void extendedConnectForWebsocketIsAnUpgradeRequest() {
        assertTrue(WebSocketHandler.isUpgradeRequest(new H2Exchange("CONNECT", "websocket")));
        assertFalse(WebSocketHandler.isUpgradeRequest(new H2Exchange("CONNECT", null)), "plain CONNECT");
        assertFalse(WebSocketHandler.isUpgradeRequest(new H2Exchange("CONNECT", "webtransport")));
        H2Exchange get = new H2Exchange("GET", null);
        get.request.set("Upgrade", "websocket"); // meaningless in HTTP/2
        assertFalse(WebSocketHandler.isUpgradeRequest(get));
    }

    @Test
    void validRequestIsAnswered200WithoutAcceptButWithSubprotocolAndExtensions() throws Exception {
        H2Exchange ex = new H2Exchange("CONNECT", "websocket");
        ex.request.set("Sec-WebSocket-Version", "13");
        ex.request.set("Sec-WebSocket-Protocol", "chat, superchat");
        ex.request.set("Sec-WebSocket-Extensions", "permessage-deflate");
        OpeningRequest r = Rfc8441Handshake.check(ex);
        assertTrue(r.http2());
        r.preselect(java.util.List.of("superchat"));
        r.answer("permessage-deflate");
        assertEquals(200, ex.status);
        assertNull(ex.response.getFirst("Sec-WebSocket-Accept"));
        assertNull(ex.response.getFirst("Upgrade"), "no connection-specific fields in HTTP/2");
        assertEquals("superchat", ex.response.getFirst("Sec-WebSocket-Protocol"));
        assertEquals("permessage-deflate", ex.response.getFirst("Sec-WebSocket-Extensions"));
    }

    @Test
    void otherVersionIsRefusedWith426() {
        H2Exchange ex = new H2Exchange("CONNECT", "websocket");
        ex.request.set("Sec-WebSocket-Version", "8");
        assertEquals(426, assertThrows(HandshakeRejection.class, () -> Rfc8441Handshake.check(ex)).status());
    }

    @Test
    void http1AcceptValueFollowsSection1_3() {
        assertEquals("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", Rfc6455Handshake.acceptValue("dGhlIHNhbXBsZSBub25jZQ=="));
    }
}
