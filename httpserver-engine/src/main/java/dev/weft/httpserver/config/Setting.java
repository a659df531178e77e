package dev.weft.httpserver.config;

import java.time.Duration;
import java.util.Locale;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * One engine setting as declared in the {@link Settings} catalog: its name, kind, default, bounds and a
 * one-line description, and where it lives in a {@link ServerConfig}. The builders take their defaults from here,
 * the configuration records validate against it, and the system properties, the Spring Boot properties and the
 * configuration reference are derived from or checked against it.
 *
 * @param <T> the value's type: {@code Integer}, {@code Long}, {@code Double}, {@code Boolean}, {@code Duration}
 *            or {@code String}
 */
public final class Setting<T> {

    /** The part of the configuration a setting belongs to. */
    public enum Group {
        /** {@link ServerConfig} itself. */
        SERVER("", ""),
        /** {@link AccessLogConfig}. */
        ACCESS_LOG("accessLog.", "accessLog."),
        /** {@link ThreadsConfig}. */
        THREADS("threads.", "threads."),
        /** {@link Http2Config}. */
        HTTP2("http2.", "http2."),
        /** {@link WebSocketConfig}. */
        WEBSOCKET("webSocket.", "websocket."),
        /** {@link ForwardedConfig}. */
        FORWARDED("forwarded.", "forwarded.");

        private final String namePrefix;
        private final String propertyPrefix;

        Group(String namePrefix, String propertyPrefix) {
            this.namePrefix = namePrefix;
            this.propertyPrefix = propertyPrefix;
        }
    }

    /** What a value measures, which decides how it is written and read as text. */
    public enum Kind {
        /** A number of bytes. */
        SIZE,
        /** A number of things (connections, fields, frames per second). */
        COUNT,
        /** A time. */
        DURATION,
        /** Bytes per second; 0 turns the minimum off. */
        RATE,
        /** A fraction above 0, at most 1. */
        FRACTION,
        /** On or off. */
        SWITCH,
        /** Text; {@code null} for none. */
        TEXT
    }

    private final Group group;
    private final String field;
    private final String property;
    private final Kind kind;
    private final Class<T> type;
    private final T defaultValue;
    private final Bounds<? super T> bounds;
    private final String description;
    private final Function<ServerConfig, T> read;
    private final BiConsumer<ConfigDraft, T> write;

    Setting(Group group, String field, String property, Kind kind, Class<T> type, T defaultValue,
            Bounds<? super T> bounds, String description, Function<ServerConfig, T> read,
            BiConsumer<ConfigDraft, T> write) {
        this.group = group;
        this.field = field;
        this.property = property;
        this.kind = kind;
        this.type = type;
        this.defaultValue = defaultValue;
        this.bounds = bounds;
        this.description = description;
        this.read = read;
        this.write = write;
        check(defaultValue);
    }

    /** The part of the configuration it belongs to. */
    public Group group() {
        return group;
    }

    /** The record component and builder method, e.g. {@code maxConcurrentStreams}. */
    public String field() {
        return field;
    }

    /** The name qualified by its group, e.g. {@code http2.maxConcurrentStreams}. */
    public String name() {
        return group.namePrefix + field;
    }

    /** The system property, e.g. {@code weft.httpserver.http2.maxConcurrentStreams}. */
    public String systemProperty() {
        return SystemPropertyConfig.PREFIX + group.propertyPrefix + property;
    }

    /**
     * The name bindings derive their own names from: the system property without its prefix, e.g.
     * {@code http2.enabled} (a binding writes it in its own case, as {@code weft.server.http2.enabled}).
     */
    public String propertyPath() {
        return group.propertyPrefix + property;
    }

    /** What it measures. */
    public Kind kind() {
        return kind;
    }

    /** The value's type. */
    public Class<T> type() {
        return type;
    }

    /** The default; {@code null} only for a {@link Kind#TEXT} setting that is off by default. */
    public T defaultValue() {
        return defaultValue;
    }

    /** The values it accepts. */
    public Bounds<? super T> bounds() {
        return bounds;
    }

    /** One line saying what it limits or switches. */
    public String description() {
        return description;
    }

    /** Its value in {@code config}. */
    public T read(ServerConfig config) {
        return read.apply(config);
    }

    /** {@code value} written into the draft's builders. */
    void write(ConfigDraft draft, T value) {
        write.accept(draft, value);
    }

    /**
     * {@code value}, checked against the bounds.
     *
     * @throws IllegalArgumentException starting with {@link #field()} if it is out of bounds
     * @throws NullPointerException     naming the field if it is {@code null} and the setting is not text
     */
    public T check(T value) {
        if (value == null) {
            if (kind == Kind.TEXT) {
                return null;
            }
            throw new NullPointerException(field);
        }
        if (!bounds.contains(value)) {
            throw new IllegalArgumentException(field + " must be " + bounds + ", was " + value);
        }
        return value;
    }

    /** The default as the configuration reference writes it: {@code 8 KiB}, {@code 30 s}, {@code 240 B/s}. */
    public String defaultText() {
        return text(defaultValue);
    }

    private String text(T value) {
        if (value == null) {
            return "none";
        }
        return switch (kind) {
            case SIZE -> size(((Number) value).longValue());
            case COUNT -> String.format(Locale.ROOT, "%,d", ((Number) value).longValue());
            case DURATION -> duration((Duration) value);
            case RATE -> ((Number) value).longValue() == 0 ? "off" : value + " B/s";
            case FRACTION -> value.toString();
            case SWITCH, TEXT -> "`" + value + "`";
        };
    }

    private static String size(long bytes) {
        if (bytes == Long.MAX_VALUE) {
            return "no limit";
        }
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " bytes";
    }

    private static String duration(Duration d) {
        if (d.isZero()) {
            return "off";
        }
        if (d.toSeconds() >= 60 && d.toSeconds() % 60 == 0 && d.toNanosPart() == 0) {
            return d.toMinutes() + " min";
        }
        if (d.toNanosPart() == 0) {
            return d.toSeconds() + " s";
        }
        if (d.toNanosPart() % 1_000_000 == 0) {
            return d.toMillis() + " ms";
        }
        return d.toNanos() / 1000 + " µs";
    }

    @Override
    public String toString() {
        return name();
    }
}
