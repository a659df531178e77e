package dev.weft.micronaut.http;

import io.micronaut.core.convert.ConversionService;
import io.micronaut.core.io.buffer.ByteArrayBufferFactory;
import io.micronaut.http.body.ByteBodyFactory;
import io.micronaut.http.body.MessageBodyHandlerRegistry;
import io.micronaut.http.server.ResponseLifecycle;
import io.micronaut.http.server.RouteExecutor;

import java.util.concurrent.Executor;

/**
 * Micronaut's response encoding (body writers, {@code Publisher} bodies, streaming errors) into bytes for
 * Weft; writers that block run on {@code ioExecutor}.
 */
final class ExchangeResponses extends ResponseLifecycle {

    private static final ByteBodyFactory BODIES = ByteBodyFactory.createDefault(ByteArrayBufferFactory.INSTANCE);

    private final Executor ioExecutor;

    ExchangeResponses(RouteExecutor routeExecutor, MessageBodyHandlerRegistry registry,
                      ConversionService conversionService, Executor ioExecutor) {
        super(routeExecutor, registry, conversionService, BODIES);
        this.ioExecutor = ioExecutor;
    }

    @Override
    protected Executor ioExecutor() {
        return ioExecutor;
    }
}
