package dev.weft.spring.boot.autoconfigure;

import dev.weft.httpserver.config.AccessLogConfig;
import dev.weft.httpserver.config.Setting;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;

import java.time.Duration;

/**
 * The engine's access log ({@code weft.server.access-log.*}): one line per exchange in the combined log format or a
 * pattern, written off the request path to a rotating file or the 'dev.weft.httpserver.access' logger. Defaults are
 * the engine's; off unless enabled.
 */
public class WeftAccessLogProperties {

    /**
     * Whether each exchange is logged.
     */
    private boolean enabled;

    /**
     * Line format: 'combined', 'common', or a pattern of Apache-style directives such as '%h %t "%r" %>s %b %D'.
     */
    private String pattern = "combined";

    /**
     * File the lines are appended to (its directories are created). Unset: the 'dev.weft.httpserver.access' logger
     * at INFO.
     */
    private String file;

    /**
     * Whether the file is renamed with its date (access.log.2026-11-27) when the day changes.
     */
    private boolean rotateDaily = true;

    /**
     * Size beyond which the file is rotated (access.log.2026-11-27.1, ...); 0 for no limit.
     */
    private DataSize maxFileSize = DataSize.ofMegabytes(100);

    /**
     * How many rotated files are kept; older ones are deleted.
     */
    private int maxFiles = 30;

    /**
     * Most lines waiting to be written; further lines are dropped and counted, never waited for.
     */
    private int queueCapacity = 8192;

    /**
     * Longest a written line stays in the file's buffer.
     */
    private Duration flushInterval = Duration.ofSeconds(1);

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getPattern() {
        return pattern;
    }

    public void setPattern(String pattern) {
        this.pattern = pattern;
    }

    public String getFile() {
        return file;
    }

    public void setFile(String file) {
        this.file = file;
    }

    public boolean isRotateDaily() {
        return rotateDaily;
    }

    public void setRotateDaily(boolean rotateDaily) {
        this.rotateDaily = rotateDaily;
    }

    public DataSize getMaxFileSize() {
        return maxFileSize;
    }

    public void setMaxFileSize(DataSize maxFileSize) {
        this.maxFileSize = maxFileSize;
    }

    public int getMaxFiles() {
        return maxFiles;
    }

    public void setMaxFiles(int maxFiles) {
        this.maxFiles = maxFiles;
    }

    public int getQueueCapacity() {
        return queueCapacity;
    }

    public void setQueueCapacity(int queueCapacity) {
        this.queueCapacity = queueCapacity;
    }

    public Duration getFlushInterval() {
        return flushInterval;
    }

    public void setFlushInterval(Duration flushInterval) {
        this.flushInterval = flushInterval;
    }

    /**
     * The engine's access log configuration with these values.
     *
     * @throws IllegalArgumentException if a value is out of the engine's range or the pattern is invalid
     */
    public AccessLogConfig toConfig() {
        if (maxFileSize == null) {
            throw new IllegalArgumentException("maxFileSize must be set");
        }
        return AccessLogConfig.builder()
                .enabled(enabled)
                .pattern(pattern)
                .file(file == null || file.isBlank() ? null : file)
                .rotateDaily(rotateDaily)
                .maxFileSize(maxFileSize.toBytes())
                .maxFiles(maxFiles)
                .queueCapacity(queueCapacity)
                .flushInterval(flushInterval)
                .build();
    }

    void validate(Errors errors) {
        EngineSettings.validate(errors, "weft.server.access-log", Setting.Group.ACCESS_LOG, this::toConfig);
    }
}
