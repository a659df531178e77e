package dev.weft.httpserver.proxy;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.ExchangeAttributes;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.ConnectionOutput;
import dev.weft.httpserver.http1.OriginCodec;
import dev.weft.httpserver.server.WeftExchanges;
import dev.weft.httpserver.stats.ServerStats;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Forwards one absolute-form request to its origin over a fresh HTTP/1.1 connection and streams the answer
 * back (RFC 9110 §7.6, RFC 9112 §3.2.2): the request in origin-form with {@code Host} from the target,
 * hop-by-hop fields removed, {@code Via} and {@code Forwarded} added, the body re-framed chunked or by
 * length; the response likewise. Our own client rather than {@code java.net.http.HttpClient}, which refuses
 * or rewrites restricted fields ({@code Host}, {@code Via}, {@code Connection}, ...) and buffers framing a
 * proxy must control. Runs on the exchange's thread.
 */
final class Forwarder {

    private static final System.Logger LOG = System.getLogger(Forwarder.class.getName());
    /** Request fields not copied: the ones rebuilt here, and {@code Expect}, already answered to the client. */
    private static final Set<String> REBUILT = Set.of("Host", "Expect", "Max-forwards");
    private static final int MAX_INTERIM_RESPONSES = 16;
    private static final int COPY_BUFFER = 16 * 1024;

    private final ProxyConfig config;
    private final ServerConfig bodyLimits;

    Forwarder(ProxyConfig config) {
        this.config = config;
        this.bodyLimits = ServerConfig.builder()
                .maxHeaderSize(config.maxResponseHeadSize())
                .maxHeaderCount(config.maxResponseHeaderCount())
                .maxRequestBodySize(Long.MAX_VALUE)
                .bodyReadTimeout(config.idleTimeout())
                .build();
    }

    /** Forwards {@code exchange} to one of {@code targets} (allowed and resolved) and relays the response. */
    void forward(HttpExchange exchange, URI uri, List<InetSocketAddress> targets, ServerStats stats)
            throws IOException {
        OriginConnection origin;
        try {
            origin = OriginConnection.open(targets, config.connectTimeout(), config.maxResponseHeadSize());
        } catch (SocketTimeoutException e) {
            upstreamFailed(exchange, stats, 504, "connecting to " + uri.getRawAuthority() + " timed out", e);
            return;
        } catch (IOException e) {
            upstreamFailed(exchange, stats, 502, "cannot connect to " + uri.getRawAuthority(), e);
            return;
        }
        try (origin; IdleWatch watch = new IdleWatch(config.idleTimeout(), origin::close, "weft-proxy-idle")) {
            boolean sent = sendRequest(exchange, uri, origin, watch);
            stats.proxyRequestForwarded();
            OriginCodec.ResponseHead head;
            try {
                head = readHead(origin);
            } catch (SocketTimeoutException e) {
                upstreamFailed(exchange, stats, 504, "no response from " + uri.getRawAuthority() + " in time", e);
                return;
            } catch (IOException e) {
                if (watch.fired()) {
                    upstreamFailed(exchange, stats, 504, "origin " + uri.getRawAuthority() + " stalled", e);
                } else {
                    upstreamFailed(exchange, stats, 502, (sent ? "" : "origin stopped reading the request; ")
                            + "bad or no response from " + uri.getRawAuthority(), e);
                }
                return;
            }
            relayResponse(exchange, head, origin, watch);
        }
    }

    /**
     * Writes the request head and streams the body. A failure to write to the origin is not final: the
     * origin may have answered early (e.g. 413) and closed, so the caller still reads a response.
     *
     * @return whether the whole request reached the origin
     * @throws IOException if reading the client's body failed (the engine answers for that)
     */
    private boolean sendRequest(HttpExchange exchange, URI uri, OriginConnection origin, IdleWatch watch)
            throws IOException {
        Headers request = exchange.getRequestHeaders();
        boolean chunked = request.containsKey("Transfer-encoding");
        String declared = request.getFirst("Content-length");
        long length = chunked || declared == null ? -1 : Long.parseLong(declared);
        ConnectionOutput out = origin.output();
        try {
            writeHead(exchange, uri, out, chunked, length);
        } catch (IOException e) {
            LOG.log(Level.DEBUG, () -> "writing request head to " + uri.getRawAuthority() + " failed: " + e);
            return false;
        }
        if (!chunked && length <= 0) {
            return flushed(out);
        }
        OutputStream body = chunked ? OriginCodec.chunkedBody(out) : OriginCodec.fixedBody(out, length);
        InputStream in = exchange.getRequestBody();
        byte[] buf = new byte[COPY_BUFFER];
        for (int n; (n = in.read(buf)) >= 0; ) {
            try {
                body.write(buf, 0, n);
                if (in.available() == 0) {
                    body.flush();
                }
            } catch (IOException e) {
                LOG.log(Level.DEBUG, () -> "origin " + uri.getRawAuthority() + " stopped reading the request: " + e);
                return false;
            }
            watch.touch();
        }
        try {
            body.close();
        } catch (IOException e) {
            return false;
        }
        return flushed(out);
    }

    private static boolean flushed(ConnectionOutput out) {
        try {
            out.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void writeHead(HttpExchange exchange, URI uri, ConnectionOutput out, boolean chunked, long length)
            throws IOException {
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        String query = uri.getRawQuery();
        String authority = uri.getRawAuthority();
        Headers request = exchange.getRequestHeaders();
        Headers fields = new Headers();
        // RFC 9112 §3.2.2: a proxy MUST replace Host with the host of an absolute-form target.
        fields.set("Host", authority);
        HopByHop.copyEndToEnd(request, fields, REBUILT);
        String maxForwards = request.getFirst("Max-forwards");
        if (maxForwards != null) {
            // RFC 9110 §7.6.2 (OPTIONS and TRACE; the caller answered those arriving with 0).
            fields.set("Max-Forwards", exchange.getRequestMethod().equals("OPTIONS")
                    || exchange.getRequestMethod().equals("TRACE")
                    ? Long.toString(Math.max(0, parseOr(maxForwards, 1) - 1)) : maxForwards);
        }
        HopByHop.addVia(fields, HopByHop.viaProtocol(exchange.getProtocol()), config.viaName());
        if (config.forwardedHeader()) {
            fields.add("Forwarded", HopByHop.forwardedElement(exchange.getRemoteAddress(), authority));
        }
        if (chunked) {
            fields.set("Transfer-Encoding", "chunked");
        } else if (length >= 0) {
            fields.set("Content-Length", Long.toString(length));
        }
        fields.set("Connection", "close");
        out.writeLatin1(exchange.getRequestMethod());
        out.writeLatin1(" ");
        out.writeLatin1(query == null ? path : path + "?" + query);
        out.writeLatin1(" HTTP/1.1\r\n");
        for (Map.Entry<String, List<String>> e : fields.entrySet()) {
            for (String v : e.getValue()) {
                out.writeLatin1(e.getKey());
                out.writeLatin1(": ");
                out.writeLatin1(v);
                out.writeLatin1("\r\n");
            }
        }
        out.writeLatin1("\r\n");
    }

    static long parseOr(String value, long fallback) {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** The final response head, skipping interim ones, within the response timeout. */
    private OriginCodec.ResponseHead readHead(OriginConnection origin) throws IOException {
        origin.deadline(System.nanoTime() + config.responseTimeout().toNanos());
        try {
            for (int i = 0; i <= MAX_INTERIM_RESPONSES; i++) {
                OriginCodec.ResponseHead head = OriginCodec.readHead(origin.input(), config.maxResponseHeadSize(),
                        config.maxResponseHeaderCount());
                if (head.status() == 101) {
                    throw new ProtocolException("101 Switching Protocols to a request without Upgrade");
                }
                if (head.status() >= 200) {
                    return head;
                }
            }
            throw new ProtocolException("more than " + MAX_INTERIM_RESPONSES + " interim responses");
        } finally {
            origin.deadline(0);
        }
    }

    private void relayResponse(HttpExchange exchange, OriginCodec.ResponseHead head, OriginConnection origin,
                               IdleWatch watch) throws IOException {
        boolean isHead = exchange.getRequestMethod().equals("HEAD");
        InputStream body;
        try {
            body = OriginCodec.body(origin.input(), head, isHead, bodyLimits);
        } catch (ProtocolException e) {
            upstreamFailed(exchange, statsOf(exchange), 502, "response framing from origin is invalid", e);
            return;
        }
        Headers fields = exchange.getResponseHeaders();
        HopByHop.copyEndToEnd(head.headers(), fields, Set.of());
        int status = head.status();
        String declared = head.headers().getFirst("Content-Length");
        boolean hasTransferCoding = head.headers().containsKey("Transfer-Encoding");
        long length;
        if (isHead || status == 204 || status == 304) {
            if (declared != null && status != 204) {
                fields.set("Content-Length", declared);
            }
            length = -1;
        } else if (declared != null && !hasTransferCoding) {
            long n = parseOr(declared, 0);
            length = n == 0 ? -1 : n;
        } else {
            length = 0;
        }
        HopByHop.addVia(fields, "1." + head.minorVersion(), config.viaName());
        exchange.sendResponseHeaders(status, length);
        if (length == -1) {
            exchange.close();
            return;
        }
        OutputStream out = exchange.getResponseBody();
        byte[] buf = new byte[COPY_BUFFER];
        while (true) {
            int n;
            try {
                n = body.read(buf);
            } catch (IOException e) {
                // The head is out: all that is left is to break the response off.
                LOG.log(Level.DEBUG, () -> "response body from origin failed" + (watch.fired() ? " (idle)" : "")
                        + ": " + e);
                WeftExchanges.transport(exchange).abort(e);
                return;
            }
            if (n < 0) {
                break;
            }
            watch.touch();
            out.write(buf, 0, n);
            if (body.available() == 0) {
                out.flush();
            }
        }
        Headers trailers = OriginCodec.trailers(body);
        if (trailers != null && !trailers.isEmpty()) {
            exchange.setAttribute(ExchangeAttributes.RESPONSE_TRAILERS, trailers);
        }
        out.close();
    }

    private static ServerStats statsOf(HttpExchange exchange) {
        return ProxyHandler.stats(exchange);
    }

    /** Answers {@code 502}/{@code 504} for an origin that failed before the response head was relayed. */
    static void upstreamFailed(HttpExchange exchange, ServerStats stats, int status, String message, IOException cause)
            throws IOException {
        stats.upstreamFailure();
        LOG.log(Level.INFO, () -> "proxy " + exchange.getRequestMethod() + " " + exchange.getRequestURI() + ": "
                + status + " " + message + (cause instanceof EOFException ? ": closed" : ": " + cause));
        ErrorResponses.send(exchange, status, message);
    }
}
