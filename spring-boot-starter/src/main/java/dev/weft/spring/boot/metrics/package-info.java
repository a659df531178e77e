/**
 * Weft's {@code weft.*} meters under Spring Boot: {@link dev.weft.spring.boot.metrics.WeftMetricsAutoConfiguration}
 * binds {@link dev.weft.micrometer.WeftMetrics} for each Weft server through
 * {@link dev.weft.spring.boot.metrics.WeftMetricsBinder}. Active only when Micrometer and {@code weft-micrometer}
 * (an optional dependency of the starter) are on the class path.
 */
@NullMarked
package dev.weft.spring.boot.metrics;

import org.jspecify.annotations.NullMarked;
