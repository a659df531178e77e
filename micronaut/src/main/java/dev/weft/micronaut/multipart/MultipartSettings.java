package dev.weft.micronaut.multipart;

import dev.weft.httpserver.forms.MultipartLimits;
import io.micronaut.http.server.HttpServerConfiguration;
import io.micronaut.scheduling.TaskExecutors;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

import java.util.concurrent.Executor;

/**
 * How multipart bodies are read: {@code micronaut.server.multipart.max-file-size} (Micronaut's default 1 MB) per
 * file, {@code micronaut.server.max-request-size} for the whole body, the engine's defaults for the number of
 * parts and the size of a part's header section, and Micronaut's blocking executor for streamed files.
 */
@Singleton
public final class MultipartSettings {

    private final MultipartLimits limits;
    private final long maxFileSize;
    private final Executor ioExecutor;

    MultipartSettings(HttpServerConfiguration configuration, @Named(TaskExecutors.BLOCKING) Executor ioExecutor) {
        MultipartLimits defaults = MultipartLimits.defaults();
        this.maxFileSize = configuration.getMultipart().getMaxFileSize();
        this.limits = MultipartLimits.builder()
                .maxParts(defaults.maxParts())
                .maxPartHeaderSize(defaults.maxPartHeaderSize())
                .maxPartSize(Math.max(maxFileSize + 1, defaults.maxPartSize()))
                .maxTotalSize(configuration.getMaxRequestSize())
                .build();
        this.ioExecutor = ioExecutor;
    }

    MultipartLimits limits() {
        return limits;
    }

    long maxFileSize() {
        return maxFileSize;
    }

    Executor ioExecutor() {
        return ioExecutor;
    }
}
