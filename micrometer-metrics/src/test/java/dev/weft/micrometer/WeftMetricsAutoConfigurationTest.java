package dev.weft.micrometer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericApplicationContext;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** When the auto-configuration contributes its binder, and what the binder does without a Weft server. */
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

    @Test
    void bindsNothingWhenTheContextHasNoWebServer() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        WeftMetricsBinder binder = new WeftMetricsBinder(registry, Tags.empty());
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            context.refresh();
            binder.onApplicationEvent(new ApplicationStartedEvent(new SpringApplication(), new String[0], context,
                    Duration.ZERO));
        }
        assertThat(binder.isBound()).isFalse();
        assertThat(registry.getMeters()).isEmpty();
    }

    @Configuration(proxyBeanMethods = false)
    static class CustomBinder {
        @Bean
        WeftMetricsBinder customBinder(MeterRegistry registry) {
            return new WeftMetricsBinder(registry, Tags.of("custom", "yes"));
        }
    }
}
