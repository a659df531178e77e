package dev.weft.httpserver.config;

import java.time.Duration;

/**
 * Where handlers run, and how virtual threads share their carriers; part of {@link ServerConfig}.
 *
 * <p>Every connection is served by a virtual thread of its own, which reads and parses requests and writes
 * responses. By default handlers run inline on it. With {@code virtual} off they run on a bounded pool of
 * platform threads instead, scheduled by the operating system, as in Tomcat or Jetty: a handler that computes
 * for long, or is pinned to its carrier (a class loaded through a lock-taking class loader, say), then cannot
 * hold back the other connections. An executor set with {@code HttpServer.setExecutor} takes precedence over
 * both.
 *
 * <p>Virtual threads are never preempted. A virtual thread that has run for longer than {@code timeSlice}
 * gives its carrier to those waiting at the next point where it can (after a request, between writes of a
 * response, between WebSocket messages), so a busy connection cannot make the others wait for seconds.
 *
 * @param virtual   whether handlers run on the connection's virtual thread (default true); when false, on a
 *                  pool of platform threads
 * @param max       most platform threads running handlers when {@code virtual} is off; exchanges beyond it
 *                  wait in arrival order (default 200)
 * @param minSpare  platform threads kept ready when {@code virtual} is off (default 10)
 * @param timeSlice longest a virtual thread serving a connection runs before it lets the others waiting for a
 *                  carrier go first; zero gives way after every request (default 200 µs)
 */
public record ThreadsConfig(boolean virtual, int max, int minSpare, Duration timeSlice) {

    private static final ThreadsConfig DEFAULTS = new Builder().build();

    /** Validates every setting; use {@link #builder()} rather than this constructor. */
    public ThreadsConfig {
        Settings.THREADS_VIRTUAL.check(virtual);
        Settings.THREADS_MAX.check(max);
        Settings.THREADS_MIN_SPARE.check(minSpare);
        Settings.THREADS_TIME_SLICE.check(timeSlice);
        if (minSpare > max) {
            throw new IllegalArgumentException("minSpare must be at most max (" + max + "), was " + minSpare);
        }
    }

    /** The documented defaults. */
    public static ThreadsConfig defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Mutable builder of a {@link ThreadsConfig}; {@link #build()} validates. */
    public static final class Builder {
        private boolean virtual = Settings.THREADS_VIRTUAL.defaultValue();
        private int max = Settings.THREADS_MAX.defaultValue();
        private int minSpare = Settings.THREADS_MIN_SPARE.defaultValue();
        private Duration timeSlice = Settings.THREADS_TIME_SLICE.defaultValue();

        private Builder() {
        }

        private Builder(ThreadsConfig c) {
            virtual = c.virtual;
            max = c.max;
            minSpare = c.minSpare;
            timeSlice = c.timeSlice;
        }

        /** @see ThreadsConfig#virtual() */
        public Builder virtual(boolean on) { virtual = on; return this; }

        /** @see ThreadsConfig#max() */
        public Builder max(int threads) { max = threads; return this; }

        /** @see ThreadsConfig#minSpare() */
        public Builder minSpare(int threads) { minSpare = threads; return this; }

        /** @see ThreadsConfig#timeSlice() */
        public Builder timeSlice(Duration d) { timeSlice = d; return this; }

        /** Validates and returns the configuration. */
        public ThreadsConfig build() {
            return new ThreadsConfig(virtual, max, minSpare, timeSlice);
        }
    }
}
