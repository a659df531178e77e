package dev.weft.spring.boot.metrics;

import dev.weft.micrometer.WeftMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the auto-configuration contributes its binder: in a web application with a meter registry, Micrometer and
 * {@code weft-micrometer} on the class path, and no binder of the application's own.
 */
class WeftMetricsAutoConfigurationTest {

    private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WeftMetricsAutoConfiguration.class));

    @Test
    void contributesABinderWhenThereIsAMeterRegistry() {
        runner.withBean(SimpleMeterRegistry.class)
                .run(context -> assertThat(context).hasSingleBean(WeftMetricsBinder.class));
    }

    @Test
    void backsOffWithoutAMeterRegistry() {
        runner.run(context -> assertThat(context).doesNotHaveBean(WeftMetricsBinder.class));
    }

    @Test
    void backsOffWithoutWeftMicrometerOnTheClassPath() {
        runner.withClassLoader(new FilteredClassLoader(WeftMetrics.class))
                .withBean(SimpleMeterRegistry.class)
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(WeftMetricsBinder.class));
    }

    @Test
    void backsOffWithoutMicrometerOnTheClassPath() {
        runner.withClassLoader(new FilteredClassLoader("io.micrometer"))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(WeftMetricsBinder.class));
    }

    @Test
    void backsOffWhenTheApplicationDefinesItsOwnBinder() {
        runner.withBean(SimpleMeterRegistry.class)
                .withUserConfiguration(CustomBinder.class)
                .run(context -> {
                    assertThat(context).hasSingleBean(WeftMetricsBinder.class);
                    assertThat(context).hasBean("customBinder");
                });
    }

    @Test
    void backsOffOutsideAWebApplication() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WeftMetricsAutoConfiguration.class))
                .withBean(SimpleMeterRegistry.class)
                .run(context -> assertThat(context).doesNotHaveBean(WeftMetricsBinder.class));
    }

    @Configuration(proxyBeanMethods = false)
    static class CustomBinder {
        @Bean
        WeftMetricsBinder customBinder(MeterRegistry registry) {
            return new WeftMetricsBinder(registry, Tags.of("custom", "yes"));
        }
    }
}
