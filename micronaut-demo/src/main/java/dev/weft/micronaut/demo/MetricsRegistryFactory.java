package dev.weft.micronaut.demo;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

/**
 * The meter registry behind {@code /metrics}: an in-memory one, so the endpoint shows values (request counts
 * and timings, JVM meters) without an export system. An application exporting to Prometheus, Datadog, ... adds
 * that registry's {@code micronaut-micrometer-registry-*} module instead.
 */
@Factory
public class MetricsRegistryFactory {

    @Singleton
    SimpleMeterRegistry simpleMeterRegistry() {
        return new SimpleMeterRegistry();
    }
}
