package dev.weft.httpserver.server;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpPrincipal;
import dev.weft.httpserver.core.AttributeNames;
import dev.weft.httpserver.core.ExchangeTransport;
import dev.weft.httpserver.core.FileRegion;
import dev.weft.httpserver.core.FileRegionSink;
import dev.weft.httpserver.core.ResponseFraming;
import dev.weft.httpserver.core.ResponseHeaders;
import dev.weft.httpserver.forwarded.ClientOrigin;
import dev.weft.httpserver.forwarded.OriginResolver;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code HttpExchange} semantics over any protocol's {@link ExchangeTransport}: the JDK's rules for
 * {@code sendResponseHeaders}, stream wrapping by filters, attributes and closing. Shared by
 * {@link WeftHttpExchange} and {@link WeftHttpsExchange}.
 */
final class Exchange {

    private static final System.Logger LOG = System.getLogger(Exchange.class.getName());

    private final ExchangeTransport transport;
    private final WeftHttpContext context;
    private final OriginResolver origins;
    /** Resolved on first use by the handler's thread; the same value whichever thread races to it. */
    private volatile ClientOrigin origin;
    private final Headers responseHeaders = new ResponseHeaders();
    private Map<String, Object> attributes;
    private InputStream originalIn;
    private InputStream in;
    private ResponseStream originalOut;
    private OutputStream out;
    private int responseCode = -1;
    private boolean sentHeaders;
    private HttpPrincipal principal;
    private volatile boolean closed;

    Exchange(ExchangeTransport transport, WeftHttpContext context, OriginResolver origins) {
        this.transport = transport;
        this.context = context;
        this.origins = origins;
        if (origins.enabled()) {
            transport.clientAddress(origin().remoteAddress()); // for the access log, whatever the handler reads
        }
    }

    /** Where the request came from, resolved once ({@link OriginResolver}). */
    ClientOrigin origin() {
        ClientOrigin o = origin;
        if (o == null) {
            boolean secure = transport.sslSession() != null || transport.proxyHeader() != null
                    && transport.proxyHeader().tls() != null && transport.proxyHeader().tls().clientSsl();
            o = origins.resolve(transport.remoteAddress(), secure, transport.requestHeaders());
            origin = o;
        }
        return o;
    }

    ExchangeTransport transport() {
        return transport;
    }

    Headers requestHeaders() {
        return transport.requestHeaders();
    }

    Headers responseHeaders() {
        return responseHeaders;
    }

    HttpContext context() {
        return context;
    }

    InputStream requestBody() {
        if (in == null) {
            originalIn = transport.requestBody();
            in = originalIn;
        }
        return in;
    }

    OutputStream responseBody() {
        if (out == null) {
            originalOut = new ResponseStream();
            out = originalOut;
        }
        return out;
    }

    int responseCode() {
        return responseCode;
    }

    /** {@code HttpExchange.sendResponseHeaders}, with the JDK's rules for each status and length. */
    void sendResponseHeaders(int code, long length) throws IOException {
        if (sentHeaders) {
            throw new IOException("headers already sent");
        }
        if (code < 100 || code > 999) {
            throw new IOException("invalid response code: " + code);
        }
        responseCode = code;
        if (code < 200 && code != 101) {
            if (length != 0 && length != -1) {
                LOG.log(Level.DEBUG, () -> "sendResponseHeaders: informational " + code + ": ignoring length");
            }
            transport.sendInterim(code, responseHeaders);
            return;
        }
        if ((code == 204 || code == 304) && length > 0) {
            LOG.log(Level.DEBUG, () -> "sendResponseHeaders: " + code + " cannot have a body; ignoring length");
        }
        OutputStream body = transport.sendResponse(code, responseHeaders, length);
        sentHeaders = true;
        responseBody();
        originalOut.wrap(body);
        InputStream requestStream = transport.requestBody();
        if (originalIn != null && originalIn != requestStream) {
            // A protocol switch: the request stream is now the raw connection, unless a filter wrapped it.
            if (in == originalIn) {
                in = requestStream;
            }
            originalIn = requestStream;
        }
        if (ResponseFraming.endsWithHead(transport.method(), code, length)) {
            // As the JDK: nothing to send, so the exchange ends here.
            close();
        }
    }

    /**
     * Writes a file region to the response body: handed to the transport's body stream, which sends it without
     * copying where its connection can, unless a filter replaced the stream ({@link #setStreams}); the
     * filter's stream then gets the bytes, copied.
     */
    void sendFile(FileRegion region) throws IOException {
        OutputStream o = responseBody();
        if (o == originalOut) {
            originalOut.write(region);
        } else {
            region.copyTo(o);
        }
    }

    void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (!sentHeaders || originalOut == null || !originalOut.wrapped()) {
                // Closed without a response: the transport answers for the handler and closes.
                transport.complete();
                return;
            }
            if (originalIn != null) {
                originalIn.close();
            }
            out.close();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, () -> "closing exchange failed: " + e);
            transport.abort(e);
        } finally {
            transport.complete();
        }
    }

    boolean isClosed() {
        return closed;
    }

    void setStreams(InputStream i, OutputStream o) {
        requestBody();
        responseBody();
        if (i != null) {
            in = i;
        }
        if (o != null) {
            out = o;
        }
    }

    HttpPrincipal principal() {
        return principal;
    }

    void principal(HttpPrincipal p) {
        principal = p;
        transport.authenticated(p == null ? null : p.getUsername());
    }

    /**
     * Per-exchange attributes (the JDK 26+ default); the engine's own ({@link AttributeNames}) are read from
     * the transport: request trailers once the body is read, the rest from the start.
     */
    Object getAttribute(String name) {
        Objects.requireNonNull(name, "null name parameter");
        Object engine = name.startsWith("dev.weft.") ? engineAttribute(name) : null;
        if (engine != null) {
            return engine;
        }
        return attributes == null ? null : attributes.get(name);
    }

    private Object engineAttribute(String name) {
        return switch (name) {
            case AttributeNames.REQUEST_TRAILERS -> transport.requestTrailers();
            case AttributeNames.CONNECT_PROTOCOL -> transport.connectProtocol();
            case AttributeNames.CONNECTION_ID -> transport.connectionId();
            case AttributeNames.PROTOCOL_REQUEST_ID -> transport.protocolRequestId();
            case AttributeNames.CLIENT_ORIGIN -> origin();
            case AttributeNames.PROXY_HEADER -> transport.proxyHeader();
            default -> null;
        };
    }

    void setAttribute(String name, Object value) {
        Objects.requireNonNull(name, "null name parameter");
        if (attributes == null) {
            attributes = new ConcurrentHashMap<>();
        }
        if (value == null) {
            attributes.remove(name);
        } else {
            attributes.put(name, value);
        }
    }

    /**
     * The stream {@code getResponseBody()} returns: usable before the head is sent (filters wrap it), but
     * writing to it before {@code sendResponseHeaders} is an error, as in the JDK.
     */
    private final class ResponseStream extends OutputStream {
        private OutputStream target;

        void wrap(OutputStream body) {
            target = body;
        }

        boolean wrapped() {
            return target != null;
        }

        private OutputStream target() throws IOException {
            if (target == null) {
                throw new IOException("response headers not sent yet");
            }
            return target;
        }

        @Override
        public void write(int b) throws IOException {
            target().write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            target().write(b, off, len);
        }

        void write(FileRegion region) throws IOException {
            OutputStream t = target();
            if (t instanceof FileRegionSink sink) {
                sink.write(region);
            } else {
                region.copyTo(t);
            }
        }

        @Override
        public void flush() throws IOException {
            target().flush();
        }

        @Override
        public void close() throws IOException {
            OutputStream t = target();
            if (attributes != null && attributes.get(AttributeNames.RESPONSE_TRAILERS) instanceof Headers h) {
                transport.setResponseTrailers(h);
            }
            t.close();
        }
    }
}
