package dev.weft.micronaut.metrics;

import dev.weft.micrometer.WeftMetrics;
import dev.weft.micronaut.server.WeftEmbeddedServer;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.util.StringUtils;
import io.micronaut.runtime.ApplicationConfiguration;
import jakarta.inject.Singleton;

/**
 * The engine's {@code weft.*} meters in Micronaut's meter registry, when {@code micronaut-micrometer-core} and
 * {@code weft-micrometer} are both on the class path (and {@code micronaut.metrics.enabled} is not
 * {@code false}): a {@link WeftMetrics} binder, which {@code micronaut-micrometer} binds to its registries, over
 * whichever engine server runs now (a {@code refresh()} replaces it), tagged {@code server=<application name>}
 * ({@code micronaut} without one).
 */
@Factory
@Requires(classes = {WeftMetrics.class, MeterBinder.class})
@Requires(classes = io.micronaut.configuration.metrics.micrometer.MeterRegistryFactory.class)
@Requires(property = "micronaut.metrics.enabled", notEquals = StringUtils.FALSE)
final class WeftMetricsFactory {

    @Singleton
    MeterBinder weftMetrics(BeanProvider<WeftEmbeddedServer> server, ApplicationConfiguration application) {
        return WeftMetrics.ofCurrent(() -> {
            WeftEmbeddedServer embedded = server.get();
            return embedded.isRunning() ? embedded.getServer() : null;
        }, Tags.of(WeftMetrics.SERVER_TAG, application.getName().orElse("micronaut")));
    }
}
