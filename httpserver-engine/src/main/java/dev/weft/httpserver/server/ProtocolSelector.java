package dev.weft.httpserver.server;

import dev.weft.httpserver.core.Connection;
import dev.weft.httpserver.core.ConnectionInput;
import dev.weft.httpserver.core.ConnectionServer;
import dev.weft.httpserver.core.ExchangeDispatcher;
import dev.weft.httpserver.http1.Http1Connection;
import dev.weft.httpserver.http2.Http2Connection;
import dev.weft.httpserver.http2.Preface;
import dev.weft.httpserver.stats.ProtocolError;

import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.net.SocketTimeoutException;

/**
 * Chooses the protocol of a new connection of one listener: HTTP/2, if the listener speaks it, when TLS
 * negotiated {@code h2} by ALPN, or when a cleartext client opens with the HTTP/2 connection preface (prior
 * knowledge, RFC 9113 §3.3); HTTP/1.1 otherwise.
 */
final class ProtocolSelector implements ConnectionServer {

    private final ConnectionServer http1;
    private final ConnectionServer http2;
    private final boolean http2Offered;

    /** @param http2Offered whether the listener speaks HTTP/2 ({@code h2} on TLS, {@code h2c} on cleartext) */
    ProtocolSelector(ExchangeDispatcher dispatcher, boolean http2Offered) {
        this.http1 = new Http1Connection(dispatcher);
        this.http2 = Http2Connection.server(dispatcher);
        this.http2Offered = http2Offered;
    }

    @Override
    public void serve(Connection c) throws IOException {
        SSLSocket tls = c.sslSocket();
        if (tls != null) {
            (http2Offered && "h2".equals(tls.getApplicationProtocol()) ? http2 : http1).serve(c);
        } else if (!http2Offered) {
            http1.serve(c);
        } else if (startsWithPreface(c)) {
            http2.serve(c);
        } else if (firstLineIsHttp1(c)) {
            http1.serve(c);
        } else {
            // Neither an HTTP/2 preface nor an HTTP/1.x request line: this peer speaks no protocol we do,
            // and an HTTP/1.1 error would only be noise to it (RFC 9113 §3.4 expects the connection closed).
            c.stats().protocolError(ProtocolError.BAD_REQUEST_LINE);
            c.close();
        }
    }

    /**
     * Reads until the first request line is buffered (or the request-line limit is reached) and tells
     * whether it could be HTTP/1.x. Only a line of three or more words without {@code HTTP/} in any case is
     * taken as another protocol; anything else, even malformed, is left to the HTTP/1.1 parser to answer.
     */
    private static boolean firstLineIsHttp1(Connection c) throws IOException {
        ConnectionInput in = c.input();
        int limit = c.config().maxRequestLineLength() + 2;
        in.requestDeadline(System.nanoTime() + c.config().headerReadTimeout().toNanos());
        int scanned = 0;
        while (true) {
            byte[] b = in.buffer();
            int start = in.position();
            int end = in.limit();
            while (start < end && (b[start] == '\r' || b[start] == '\n')) {
                start++; // RFC 9112 §2.2: empty lines before a request line are ignored
            }
            for (int i = Math.max(start, in.position() + scanned); i < end; i++) {
                if (b[i] == '\n') {
                    return spaces(b, start, i) < 2 || containsHttpSlash(b, start, i);
                }
            }
            scanned = end - in.position();
            if (scanned >= limit) {
                return true;
            }
            try {
                if (in.fill() < 0) {
                    return true;
                }
            } catch (SocketTimeoutException | ConnectionInput.BufferFullException e) {
                return true;
            }
        }
    }

    private static int spaces(byte[] b, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            if (b[i] == ' ') {
                n++;
            }
        }
        return n;
    }

    private static boolean containsHttpSlash(byte[] b, int from, int to) {
        for (int i = from; i + 5 <= to; i++) {
            if ((b[i] | 0x20) == 'h' && (b[i + 1] | 0x20) == 't' && (b[i + 2] | 0x20) == 't'
                    && (b[i + 3] | 0x20) == 'p' && b[i + 4] == '/') {
                return true;
            }
        }
        return false;
    }

    /**
     * Reads until the first bytes either are the 24-byte preface or cannot be; they stay buffered for the
     * chosen protocol. A client that sends nothing within the idle timeout is closed.
     */
    private static boolean startsWithPreface(Connection c) throws IOException {
        ConnectionInput in = c.input();
        in.idleDeadline(System.nanoTime(), c.config().idleTimeout().toNanos());
        try {
            while (in.buffered() < Preface.LENGTH) {
                if (!Preface.isPrefix(in.buffer(), in.position(), in.buffered())) {
                    return false;
                }
                if (in.fill() < 0) {
                    return false; // closed before a full request: HTTP/1.1 sees the end of stream
                }
            }
        } catch (SocketTimeoutException e) {
            if (!(e instanceof ConnectionInput.EvictedException)) {
                c.stats().idleClose(); // an eviction was counted where it was decided
            }
            throw e;
        }
        return Preface.isPrefix(in.buffer(), in.position(), Preface.LENGTH);
    }
}
