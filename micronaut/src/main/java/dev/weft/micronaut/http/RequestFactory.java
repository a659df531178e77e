package dev.weft.micronaut.http;

import com.sun.net.httpserver.HttpExchange;
import io.micronaut.core.convert.ConversionService;
import io.micronaut.http.server.HttpServerConfiguration;

import java.nio.charset.Charset;
import java.util.concurrent.Executor;

/** Makes the {@link WeftHttpRequest} of each exchange with the server's limits and character set. */
final class RequestFactory {

    private final ConversionService conversionService;
    private final Executor ioExecutor;
    private final BodyDecoder decoder;
    private final long maxRequestSize;
    private final long maxBufferSize;
    private final Charset charset;
    private final int maxParams;

    RequestFactory(ConversionService conversionService, HttpServerConfiguration configuration, Executor ioExecutor,
                   BodyDecoder decoder) {
        this.conversionService = conversionService;
        this.ioExecutor = ioExecutor;
        this.decoder = decoder;
        this.maxRequestSize = configuration.getMaxRequestSize();
        this.maxBufferSize = configuration.getMaxRequestBufferSize();
        this.charset = configuration.getDefaultCharset();
        this.maxParams = configuration.getMaxParams();
    }

    WeftHttpRequest create(HttpExchange exchange) {
        RequestBody body = new RequestBody(new ClientBodyInput(exchange.getRequestBody(), exchange),
                declaredLength(exchange), maxRequestSize, maxBufferSize, ioExecutor);
        return new WeftHttpRequest(exchange, conversionService, body, decoder, charset, maxParams);
    }

    /** The body's declared length; -1 when chunked; 0 when there is none. */
    private static long declaredLength(HttpExchange exchange) {
        String length = exchange.getRequestHeaders().getFirst("Content-Length");
        if (length != null) {
            try {
                return Long.parseLong(length.strip());
            } catch (NumberFormatException ex) {
                return -1; // the engine rejects a malformed length before a handler runs
            }
        }
        return exchange.getRequestHeaders().containsKey("Transfer-Encoding") ? -1 : 0;
    }
}
