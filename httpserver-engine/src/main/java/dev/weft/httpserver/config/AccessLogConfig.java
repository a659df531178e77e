package dev.weft.httpserver.config;

import dev.weft.httpserver.accesslog.LogPattern;

import java.time.Duration;

/**
 * The access log of one server, part of {@link ServerConfig}: off by default; on, one line per exchange in the
 * given pattern, written off the request path to a rotating file or to the {@code dev.weft.httpserver.access}
 * {@link System.Logger} at {@code INFO}.
 *
 * <p>Lines wait on a bounded queue for the one thread that writes them; when it is full (the disk cannot keep up)
 * further lines are dropped and counted ({@code accessLogLinesDropped} in the statistics), so the log never slows
 * an exchange down. A stop writes every queued line and closes the file. Build one with {@link #builder()};
 * {@link #defaults()} gives the documented defaults.
 *
 * @param enabled       whether exchanges are logged (default off)
 * @param pattern       the line format: {@code combined} (the default), {@code common}, or a pattern of
 *                      Apache-style directives such as {@code %h %t "%r" %>s %b %D}; checked when the configuration
 *                      is built
 * @param file          the file lines are appended to, created with its directories; {@code null} (the default)
 *                      for the {@code dev.weft.httpserver.access} logger
 * @param rotateDaily   whether the file is renamed with its day ({@code access.log.2026-11-27}) when the day changes
 *                      (default on)
 * @param maxFileSize   size in bytes beyond which the file is rotated ({@code access.log.2026-11-27.1}, ...);
 *                      0 for no limit (default 100 MiB)
 * @param maxFiles      how many rotated files are kept; older ones are deleted (default 30)
 * @param queueCapacity most lines waiting to be written; more are dropped (default 8192)
 * @param flushInterval longest a written line stays in the file's buffer (default 1 s)
 */
public record AccessLogConfig(
        boolean enabled,
        String pattern,
        String file,
        boolean rotateDaily,
        long maxFileSize,
        int maxFiles,
        int queueCapacity,
        Duration flushInterval) {

    private static final AccessLogConfig DEFAULTS = new Builder().build();

    /** Validates every setting, the pattern included; use {@link #builder()} rather than this constructor. */
    public AccessLogConfig {
        Settings.ACCESS_LOG_ENABLED.check(enabled);
        Settings.ACCESS_LOG_PATTERN.check(pattern);
        Settings.ACCESS_LOG_FILE.check(file);
        Settings.ACCESS_LOG_ROTATE_DAILY.check(rotateDaily);
        Settings.ACCESS_LOG_MAX_FILE_SIZE.check(maxFileSize);
        Settings.ACCESS_LOG_MAX_FILES.check(maxFiles);
        Settings.ACCESS_LOG_QUEUE_CAPACITY.check(queueCapacity);
        Settings.ACCESS_LOG_FLUSH_INTERVAL.check(flushInterval);
        if (pattern == null) {
            throw new NullPointerException("pattern");
        }
        try {
            LogPattern.compile(pattern);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("pattern " + e.getMessage(), e);
        }
        if (file != null && file.isBlank()) {
            throw new IllegalArgumentException("file must not be blank; null for the logger");
        }
    }

    /** The documented defaults. */
    public static AccessLogConfig defaults() {
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

    /** Mutable builder of an {@link AccessLogConfig}; {@link #build()} validates. */
    public static final class Builder {
        private boolean enabled = Settings.ACCESS_LOG_ENABLED.defaultValue();
        private String pattern = Settings.ACCESS_LOG_PATTERN.defaultValue();
        private String file = Settings.ACCESS_LOG_FILE.defaultValue();
        private boolean rotateDaily = Settings.ACCESS_LOG_ROTATE_DAILY.defaultValue();
        private long maxFileSize = Settings.ACCESS_LOG_MAX_FILE_SIZE.defaultValue();
        private int maxFiles = Settings.ACCESS_LOG_MAX_FILES.defaultValue();
        private int queueCapacity = Settings.ACCESS_LOG_QUEUE_CAPACITY.defaultValue();
        private Duration flushInterval = Settings.ACCESS_LOG_FLUSH_INTERVAL.defaultValue();

        private Builder() {
        }

        private Builder(AccessLogConfig c) {
            enabled = c.enabled;
            pattern = c.pattern;
            file = c.file;
            rotateDaily = c.rotateDaily;
            maxFileSize = c.maxFileSize;
            maxFiles = c.maxFiles;
            queueCapacity = c.queueCapacity;
            flushInterval = c.flushInterval;
        }

        /** @see AccessLogConfig#enabled() */
        public Builder enabled(boolean on) { enabled = on; return this; }

        /** @see AccessLogConfig#pattern() */
        public Builder pattern(String p) { pattern = p; return this; }

        /** @see AccessLogConfig#file() */
        public Builder file(String path) { file = path; return this; }

        /** @see AccessLogConfig#rotateDaily() */
        public Builder rotateDaily(boolean on) { rotateDaily = on; return this; }

        /** @see AccessLogConfig#maxFileSize() */
        public Builder maxFileSize(long bytes) { maxFileSize = bytes; return this; }

        /** @see AccessLogConfig#maxFiles() */
        public Builder maxFiles(int count) { maxFiles = count; return this; }

        /** @see AccessLogConfig#queueCapacity() */
        public Builder queueCapacity(int lines) { queueCapacity = lines; return this; }

        /** @see AccessLogConfig#flushInterval() */
        public Builder flushInterval(Duration d) { flushInterval = d; return this; }

        /** Validates and returns the configuration. */
        public AccessLogConfig build() {
            return new AccessLogConfig(enabled, pattern, file, rotateDaily, maxFileSize, maxFiles, queueCapacity,
                    flushInterval);
        }
    }
}
