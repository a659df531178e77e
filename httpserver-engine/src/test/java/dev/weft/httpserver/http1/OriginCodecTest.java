package dev.weft.httpserver.http1;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.ConnectionInput;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class OriginCodecTest {

    private static ConnectionInput input(String s) {
        ConnectionInput in = new ConnectionInput(new ByteArrayInputStream(s.getBytes(StandardCharsets.ISO_8859_1)),
                16, 4096);
        in.readTimeout(Integer.MAX_VALUE);
        return in;
    }

    private static String body(String response, boolean headRequest) throws IOException {
        ConnectionInput in = input(response);
        OriginCodec.ResponseHead head = OriginCodec.readHead(in, 4096, 100);
        InputStream b = OriginCodec.body(in, head, headRequest, ServerConfig.defaults());
        return new String(b.readAllBytes(), StandardCharsets.ISO_8859_1);
    }

    @Test
    void statusLineAndFieldsAreParsed() throws IOException {
        OriginCodec.ResponseHead h = OriginCodec.readHead(input("HTTP/1.0 404 Not Found\r\nX-A: 1\r\nX-A: 2\r\n\r\n"),
                4096, 100);
        assertEquals(0, h.minorVersion());
        assertEquals(404, h.status());
        assertEquals(java.util.List.of("1", "2"), h.headers().get("X-a"));
        assertEquals(204, OriginCodec.readHead(input("HTTP/1.1 204\r\n\r\n"), 4096, 100).status(), "no reason");
    }

    @Test
    void malformedHeadsAreProtocolErrors() {
        for (String bad : new String[] {"HTTP/2.0 200 OK\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n", "HTTP/1.1 20 OK\r\n\r\n",
                "HTTP/1.1 200 OK\n\r\n", "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n", "ICY 200 OK\r\n\r\n",
                "HTTP/1.1 200OK\r\n\r\n"}) {
            assertThrows(ProtocolException.class, () -> OriginCodec.readHead(input(bad), 4096, 100), bad);
        }
        assertThrows(ProtocolException.class, () -> OriginCodec.readHead(
                input("HTTP/1.1 200 OK\r\nX: " + "a".repeat(300) + "\r\n\r\n"), 256, 100), "too large");
        assertThrows(EOFException.class, () -> OriginCodec.readHead(input(""), 4096, 100));
    }

    @Test
    void bodyFramingFollowsRfc9112Section6_3() throws IOException {
        assertEquals("hello", body("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello, and more", false));
        assertEquals("hello world", body("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nX-T: 1\r\n\r\n", false));
        assertEquals("until close", body("HTTP/1.0 200 OK\r\n\r\nuntil close", false));
        assertEquals("", body("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", true), "HEAD");
        assertEquals("", body("HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n", false));
        for (String bad : new String[] {"Content-Length: 5\r\nContent-Length: 5", "Content-Length: 5, 5",
                "Content-Length: -1", "Transfer-Encoding: gzip, chunked", "Transfer-Encoding: identity"}) {
            assertThrows(ProtocolException.class, () -> body("HTTP/1.1 200 OK\r\n" + bad + "\r\n\r\nhello", false), bad);
        }
    }

    @Test
    void chunkedTrailersAreKept() throws IOException {
        ConnectionInput in = input("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\nX-Sum: 7\r\n\r\n");
        OriginCodec.ResponseHead head = OriginCodec.readHead(in, 4096, 100);
        InputStream b = OriginCodec.body(in, head, false, ServerConfig.defaults());
        b.readAllBytes();
        assertEquals("7", OriginCodec.trailers(b).getFirst("X-Sum"));
    }
}
