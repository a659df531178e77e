package dev.weft.micronaut.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsExchange;
import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.convert.ConversionService;
import io.micronaut.core.convert.value.MutableConvertibleValues;
import io.micronaut.core.convert.value.MutableConvertibleValuesMap;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpVersion;
import io.micronaut.http.MutableHttpHeaders;
import io.micronaut.http.MutableHttpParameters;
import io.micronaut.http.MutableHttpRequest;
import io.micronaut.http.ServerHttpRequest;
import io.micronaut.http.body.ByteBody;
import io.micronaut.http.cookie.Cookie;
import io.micronaut.http.cookie.Cookies;
import io.micronaut.http.simple.SimpleHttpParameters;
import io.micronaut.http.simple.cookies.SimpleCookies;
import io.micronaut.http.uri.QueryStringDecoder;

import javax.net.ssl.SSLSession;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.Charset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A request received by Weft as Micronaut sees it: method, target, header fields (in place on the exchange),
 * query parameters and cookies (parsed when first asked for), attributes, the TLS session, and the body as a
 * {@link ByteBody} or, once a binder has read it, as the object it became. Filters may change it: the target,
 * header fields, parameters, cookies and body are mutable, as on Netty.
 */
public final class WeftHttpRequest implements MutableHttpRequest<Object>, ServerHttpRequest<Object> {

    private final HttpExchange exchange;
    private final ConversionService conversionService;
    private final RequestBody body;
    private final BodyDecoder decoder;
    private final Charset charset;
    private final int maxParams;
    private final HttpMethod method;
    private final ExchangeHeaders headers;
    private MutableConvertibleValues<Object> attributes;
    private URI uri;
    private SimpleHttpParameters parameters;
    private SimpleCookies cookies;
    /** What a binder made of the body, or what a filter set. */
    private Object decodedBody;

    WeftHttpRequest(HttpExchange exchange, ConversionService conversionService, RequestBody body,
                    BodyDecoder decoder, Charset charset, int maxParams) {
        this.exchange = exchange;
        this.conversionService = conversionService;
        this.body = body;
        this.decoder = decoder;
        this.charset = charset;
        this.maxParams = maxParams;
        this.method = HttpMethod.parse(exchange.getRequestMethod());
        this.headers = new ExchangeHeaders(exchange.getRequestHeaders(), conversionService);
    }

    /** The engine's exchange behind this request. */
    public HttpExchange exchange() {
        return exchange;
    }

    /** The body's bytes and limits. */
    public RequestBody body() {
        return body;
    }

    @Override
    public ByteBody byteBody() {
        return body.byteBody();
    }

    @Override
    public MutableHttpRequest<Object> cookie(Cookie cookie) {
        ((SimpleCookies) getCookies()).put(cookie.getName(), cookie);
        return this;
    }

    @Override
    public MutableHttpRequest<Object> uri(URI uri) {
        this.uri = uri;
        this.parameters = null;
        return this;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> MutableHttpRequest<T> body(T body) {
        this.decodedBody = body;
        return (MutableHttpRequest<T>) this;
    }

    @Override
    public MutableHttpHeaders getHeaders() {
        return headers;
    }

    @Override
    public MutableHttpParameters getParameters() {
        if (parameters == null) {
            String query = getUri().getRawQuery();
            Map<CharSequence, List<String>> values = new LinkedHashMap<>();
            if (query != null && !query.isEmpty()) {
                new QueryStringDecoder(query, charset, false, maxParams).parameters().forEach(values::put);
            }
            parameters = new SimpleHttpParameters(values, conversionService);
        }
        return parameters;
    }

    @Override
    public Cookies getCookies() {
        if (cookies == null) {
            List<String> fields = exchange.getRequestHeaders().get("Cookie");
            cookies = RequestCookies.parse(fields == null ? List.of() : fields, conversionService);
        }
        return cookies;
    }

    @Override
    public HttpMethod getMethod() {
        return method;
    }

    @Override
    public String getMethodName() {
        return exchange.getRequestMethod();
    }

    @Override
    public URI getUri() {
        if (uri == null) {
            uri = exchange.getRequestURI();
        }
        return uri;
    }

    @Override
    public String getPath() {
        String path = getUri().getRawPath();
        return path == null || path.isEmpty() ? "/" : path;
    }

    @Override
    public HttpVersion getHttpVersion() {
        return "HTTP/2.0".equals(exchange.getProtocol()) ? HttpVersion.HTTP_2_0 : HttpVersion.HTTP_1_1;
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return exchange.getRemoteAddress();
    }

    @Override
    public InetSocketAddress getServerAddress() {
        return exchange.getLocalAddress();
    }

    @Override
    public boolean isSecure() {
        return exchange instanceof HttpsExchange;
    }

    @Override
    public Optional<SSLSession> getSslSession() {
        return exchange instanceof HttpsExchange https ? Optional.ofNullable(https.getSSLSession()) : Optional.empty();
    }

    @Override
    public MutableConvertibleValues<Object> getAttributes() {
        if (attributes == null) {
            attributes = new MutableConvertibleValuesMap<>(new LinkedHashMap<>(8), conversionService);
        }
        return attributes;
    }

    @Override
    public Optional<Object> getBody() {
        return Optional.ofNullable(decodedBody);
    }

    @Override
    public <T> Optional<T> getBody(ArgumentConversionContext<T> conversionContext) {
        if (decodedBody != null) {
            if (conversionContext.getArgument().getType().isInstance(decodedBody)) {
                return Optional.of(conversionContext.getArgument().getType().cast(decodedBody));
            }
            Optional<T> converted = conversionService.convert(decodedBody, conversionContext);
            if (converted.isPresent()) {
                return converted;
            }
        }
        if (!method.permitsRequestBody() || body.isEmpty()) {
            return Optional.empty();
        }
        return decoder.decode(this, conversionContext);
    }

    /** Keeps what a binder made of the body for later readers ({@code getBody()}, filters after the route). */
    void decoded(Object value) {
        this.decodedBody = value;
    }

    @Override
    public void setConversionService(ConversionService conversionService) {
        // the application's conversion service is the one this request was made with
    }

    @Override
    public Charset getCharacterEncoding() {
        return getContentType().flatMap(type -> type.getCharset()).orElse(charset);
    }

    @Override
    public String toString() {
        return getMethodName() + " " + getUri();
    }
}
