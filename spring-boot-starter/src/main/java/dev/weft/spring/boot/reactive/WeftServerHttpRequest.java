package dev.weft.spring.boot.reactive;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsExchange;
import dev.weft.httpserver.ExchangeAttributes;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.forwarded.ClientOrigin;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpCookie;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.AbstractServerHttpRequest;
import org.springframework.http.server.reactive.SslInfo;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import reactor.core.publisher.Flux;

import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A Weft exchange's request as spring-web's {@code ServerHttpRequest}: method, absolute URI (scheme from the
 * transport, authority from {@code Host}, path and query exactly as in the request target, so
 * {@code //evil.example/x} is the path {@code //evil.example/x}, as Reactor Netty reports it), a copy of the
 * headers, cookies, TLS details, addresses, and the body as a back-pressured stream of chunks read on the
 * connection thread.
 *
 * <p>An HTTP/2 WebSocket opening request (RFC 8441 extended {@code CONNECT} with {@code :protocol websocket})
 * is shown as the HTTP/1.1 opening request it stands for (RFC 6455 §4.1): method {@code GET} with
 * {@code Upgrade: websocket}, {@code Connection: Upgrade} and a {@code Sec-WebSocket-Key} (HTTP/2 has no key;
 * a random one is made up, and never used). So WebFlux's handshake checks, handler predicates and security
 * rules that expect a {@code GET} upgrade treat both protocols alike; the engine answers the real request.
 */
public final class WeftServerHttpRequest extends AbstractServerHttpRequest {

    private final HttpExchange exchange;
    private final Publisher<DataBuffer> body;

    WeftServerHttpRequest(HttpExchange exchange, Publisher<DataBuffer> body) throws URISyntaxException {
        super(isWebSocketConnect(exchange) ? HttpMethod.GET : HttpMethod.valueOf(exchange.getRequestMethod()),
                uri(exchange, Weft.origin(exchange)), Weft.origin(exchange).prefix(), headers(exchange));
        this.exchange = exchange;
        this.body = body;
    }

    /**
     * The absolute URI: scheme, host and (as context path) prefix as the engine resolved the client's origin
     * (from the connection, or a trusted proxy's forwarded headers), path and query as sent.
     */
    private static URI uri(HttpExchange exchange, ClientOrigin origin) throws URISyntaxException {
        URI target = exchange.getRequestURI();
        if (target.isAbsolute()) {
            return target; // absolute-form request target (RFC 9112 §3.2.2)
        }
        String authority = origin.authority() != null ? origin.authority()
                : exchange.getRequestHeaders().getFirst("Host");
        if (authority == null || authority.isBlank()) {
            authority = authority(exchange.getLocalAddress());
        }
        String path = target.getRawPath();
        StringBuilder uri = new StringBuilder(origin.scheme()).append("://").append(authority.strip());
        if (origin.prefix() != null) {
            uri.append(origin.prefix());
        }
        if (path != null && path.startsWith("/")) {
            uri.append(path);
        }
        if (target.getRawQuery() != null) {
            uri.append('?').append(target.getRawQuery());
        }
        return new URI(uri.toString());
    }

    private static String authority(InetSocketAddress address) {
        String host = address.getHostString();
        if (address.getAddress() instanceof Inet6Address) {
            host = "[" + host + "]";
        }
        return host + ":" + address.getPort();
    }

    private static HttpHeaders headers(HttpExchange exchange) {
        HttpHeaders headers = new HttpHeaders();
        exchange.getRequestHeaders().forEach(headers::addAll);
        if (isWebSocketConnect(exchange)) {
            headers.set(HttpHeaders.UPGRADE, "websocket");
            headers.set(HttpHeaders.CONNECTION, "Upgrade");
            if (!headers.containsHeader("Sec-WebSocket-Key")) {
                byte[] nonce = new byte[16];
                ThreadLocalRandom.current().nextBytes(nonce);
                headers.set("Sec-WebSocket-Key", Base64.getEncoder().encodeToString(nonce));
            }
        }
        return headers;
    }

    /** Whether this is an RFC 8441 extended CONNECT opening a WebSocket over HTTP/2. */
    private static boolean isWebSocketConnect(HttpExchange exchange) {
        return "CONNECT".equals(exchange.getRequestMethod())
                && exchange.getAttribute(ExchangeAttributes.CONNECT_PROTOCOL) instanceof String protocol
                && protocol.equalsIgnoreCase("websocket");
    }

    @Override
    protected MultiValueMap<String, HttpCookie> initCookies() {
        MultiValueMap<String, HttpCookie> cookies = new LinkedMultiValueMap<>();
        List<String> fields = exchange.getRequestHeaders().get("Cookie");
        if (fields == null) {
            return cookies;
        }
        // RFC 6265 §5.4: "name=value" pairs separated by "; "
        for (String field : fields) {
            for (String pair : field.split(";")) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    continue;
                }
                String name = pair.substring(0, eq).strip();
                String value = pair.substring(eq + 1).strip();
                if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                    value = value.substring(1, value.length() - 1);
                }
                if (!name.isEmpty()) {
                    cookies.add(name, new HttpCookie(name, value));
                }
            }
        }
        return cookies;
    }

    @Override
    protected @Nullable SslInfo initSslInfo() {
        if (!(exchange instanceof HttpsExchange https)) {
            return null;
        }
        SSLSession session = https.getSSLSession();
        if (session == null) {
            return null;
        }
        String id = HexFormat.of().formatHex(session.getId());
        X509Certificate[] peer = peerCertificates(session);
        return peer == null ? SslInfo.from(id) : SslInfo.from(id, peer);
    }

    private static X509Certificate @Nullable [] peerCertificates(SSLSession session) {
        Certificate[] certificates;
        try {
            certificates = session.getPeerCertificates();
        } catch (SSLPeerUnverifiedException ex) {
            return null; // the client presented no certificate
        }
        X509Certificate[] x509 = Arrays.stream(certificates)
                .filter(X509Certificate.class::isInstance)
                .map(X509Certificate.class::cast)
                .toArray(X509Certificate[]::new);
        return x509.length == 0 ? null : x509;
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return exchange.getRemoteAddress();
    }

    @Override
    public InetSocketAddress getLocalAddress() {
        return exchange.getLocalAddress();
    }

    @Override
    public Flux<DataBuffer> getBody() {
        return Flux.from(body);
    }

    /** The engine's {@link HttpExchange}. */
    @Override
    @SuppressWarnings("unchecked")
    public <T> T getNativeRequest() {
        return (T) exchange;
    }
}
