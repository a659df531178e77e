package dev.weft.micrometer;

import dev.weft.spring.boot.WeftWebServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;

/**
 * Publishes the Weft server's statistics as {@code weft.*} meters ({@link WeftMetrics}) in the application's
 * {@link MeterRegistry} when the web server is Weft. Define your own {@link WeftMetricsBinder} bean to change
 * the tags.
 */
@AutoConfiguration(afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnWebApplication
@ConditionalOnClass({ MeterRegistry.class, WeftWebServer.class })
public final class WeftMetricsAutoConfiguration {

    /** The binder; it binds once the application has started and the server is known. */
    @Bean
    @ConditionalOnBean(MeterRegistry.class)
    @ConditionalOnMissingBean(WeftMetricsBinder.class)
    WeftMetricsBinder weftMetricsBinder(MeterRegistry meterRegistry) {
        return new WeftMetricsBinder(meterRegistry, Tags.empty());
    }
}
