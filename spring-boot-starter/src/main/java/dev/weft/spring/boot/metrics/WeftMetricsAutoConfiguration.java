package dev.weft.spring.boot.metrics;

import dev.weft.micrometer.WeftMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;

/**
 * Publishes the statistics of the application's Weft servers as {@code weft.*} meters ({@link WeftMetrics}) in
 * its {@link MeterRegistry}, when Micrometer and {@code weft-micrometer} are on the class path. Define your own
 * {@link WeftMetricsBinder} bean to add tags.
 */
@AutoConfiguration(afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnWebApplication
@ConditionalOnClass({ MeterRegistry.class, WeftMetrics.class })
public final class WeftMetricsAutoConfiguration {

    /** The binder; it binds each Weft server once that server has started. */
    @Bean
    @ConditionalOnBean(MeterRegistry.class)
    @ConditionalOnMissingBean(WeftMetricsBinder.class)
    WeftMetricsBinder weftMetricsBinder(MeterRegistry meterRegistry) {
        return new WeftMetricsBinder(meterRegistry, Tags.empty());
    }
}
