package dev.weft.httpserver.config;

import java.time.Duration;
import java.util.Properties;

/**
 * Reads a {@link ServerConfig} from {@code weft.httpserver.*} system properties: the fallback for servers
 * created through the plain JDK API, where no configuration object can be passed.
 *
 * <p>Every setting of the {@link Settings} catalog is read from its {@link Setting#systemProperty()}, e.g.
 * {@code weft.httpserver.maxConnections}, {@code weft.httpserver.http2.h2c},
 * {@code weft.httpserver.websocket.idleTimeout}. Sizes, counts and rates are plain numbers; durations are
 * milliseconds or an ISO-8601 duration such as {@code PT15S}; switches are {@code true}/{@code false}; text
 * is taken as it is, empty for none.
 */
public final class SystemPropertyConfig {

    /** Prefix of every property name. */
    public static final String PREFIX = "weft.httpserver.";

    private SystemPropertyConfig() {
    }

    /** The configuration from {@link System#getProperties()}. */
    public static ServerConfig fromSystemProperties() {
        return from(System.getProperties());
    }

    /**
     * The configuration from the given properties, defaults for those not set.
     *
     * @throws IllegalArgumentException naming the property when a value is malformed or out of range
     */
    public static ServerConfig from(Properties p) {
        ConfigDraft draft = new ConfigDraft(ServerConfig.defaults());
        for (Setting<?> setting : Settings.all()) {
            read(p, setting, draft);
        }
        try {
            return draft.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid " + PREFIX + "* system property: " + e.getMessage(), e);
        }
    }

    private static <T> void read(Properties p, Setting<T> setting, ConfigDraft draft) {
        String raw = p.getProperty(setting.systemProperty());
        if (raw == null) {
            return;
        }
        try {
            setting.write(draft, setting.check(parse(setting.type(), raw.trim())));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("invalid value for " + setting.systemProperty() + ": '" + raw + "'"
                    + (e.getMessage() != null ? " (" + e.getMessage() + ")" : ""), e);
        }
    }

    private static <T> T parse(Class<T> type, String v) {
        Object value;
        if (type == Integer.class) {
            value = Integer.parseInt(v);
        } else if (type == Long.class) {
            value = Long.parseLong(v);
        } else if (type == Double.class) {
            value = Double.parseDouble(v);
        } else if (type == Boolean.class) {
            value = bool(v);
        } else if (type == Duration.class) {
            value = v.startsWith("P") || v.startsWith("p") ? Duration.parse(v) : Duration.ofMillis(Long.parseLong(v));
        } else if (type == String.class) {
            value = v.isEmpty() ? null : v;
        } else {
            throw new IllegalStateException("no parser for " + type);
        }
        return type.cast(value);
    }

    private static boolean bool(String v) {
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        if (v.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("expected true or false");
    }
}
