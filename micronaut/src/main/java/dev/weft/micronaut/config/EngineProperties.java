package dev.weft.micronaut.config;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.config.Setting;
import dev.weft.httpserver.config.Settings;
import dev.weft.httpserver.config.SystemPropertyConfig;
import io.micronaut.context.env.Environment;
import io.micronaut.context.exceptions.ConfigurationException;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The engine's own settings as Micronaut properties: every setting of the engine's {@link Settings} catalog is
 * {@code weft.server.<its property path in kebab case>} (e.g. {@code weft.server.http2.max-concurrent-streams}),
 * derived from the catalog, never listed by hand. Values are written as Micronaut writes them: sizes and rates
 * as bytes or with {@code KB}/{@code MB}/{@code GB}, durations as {@code 30s}, {@code 5m} or ISO-8601.
 */
public final class EngineProperties {

    /** Prefix of every engine property. */
    public static final String PREFIX = "weft.server.";

    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([KMG]?B)?", Pattern.CASE_INSENSITIVE);

    private EngineProperties() {
    }

    /** The Micronaut property of {@code setting}, e.g. {@code weft.server.http2.max-concurrent-streams}. */
    public static String property(Setting<?> setting) {
        return PREFIX + setting.propertyPath().replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /**
     * The engine settings {@code environment} sets, each checked against the catalog's bounds, as the values of
     * a {@link ServerConfig} built from {@link SystemPropertyConfig}'s properties.
     *
     * @throws ConfigurationException naming the property when a value is malformed or out of bounds
     */
    public static Map<Setting<?>, String> read(Environment environment) {
        Map<Setting<?>, String> values = new LinkedHashMap<>();
        for (Setting<?> setting : Settings.all()) {
            String raw = environment.getProperty(property(setting), String.class).orElse(null);
            if (raw == null) {
                continue;
            }
            String value;
            try {
                value = engineText(setting, raw.strip());
            } catch (ConfigurationException ex) {
                throw new ConfigurationException("Invalid value for " + property(setting) + ": '" + raw + "' ("
                        + setting.description() + "; " + ex.getMessage() + ")", ex);
            }
            Properties one = new Properties();
            one.setProperty(setting.systemProperty(), value);
            try {
                SystemPropertyConfig.from(one);
            } catch (IllegalArgumentException ex) {
                throw new ConfigurationException("Invalid value for " + property(setting) + ": '" + raw + "' ("
                        + setting.description() + "; " + ex.getMessage() + ")", ex);
            }
            values.put(setting, value);
        }
        return values;
    }

    /** {@code config} with the given settings (from {@link #read}) applied over it. */
    public static ServerConfig apply(ServerConfig config, Map<Setting<?>, String> values) {
        Properties properties = new Properties();
        for (Setting<?> setting : Settings.all()) {
            String value = values.containsKey(setting) ? values.get(setting) : systemText(setting, config);
            if (value != null) {
                properties.setProperty(setting.systemProperty(), value);
            }
        }
        return SystemPropertyConfig.from(properties);
    }

    /** A value written the Micronaut way, in the form of the engine's system properties. */
    private static String engineText(Setting<?> setting, String raw) {
        return switch (setting.kind()) {
            case SIZE, RATE -> Long.toString(bytes(raw));
            case DURATION -> duration(raw).toString();
            default -> raw;
        };
    }

    private static <T> String systemText(Setting<T> setting, ServerConfig config) {
        T value = setting.read(config);
        if (value == null) {
            return setting.kind() == Setting.Kind.TEXT ? "" : null;
        }
        return value.toString();
    }

    private static long bytes(String raw) {
        Matcher m = SIZE.matcher(raw);
        if (!m.matches()) {
            throw new ConfigurationException("Expected a size such as 65536, 64KB or 1MB: '" + raw + "'");
        }
        long number = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "B" : m.group(2).toUpperCase(Locale.ROOT);
        return switch (unit) {
            case "KB" -> Math.multiplyExact(number, 1024L);
            case "MB" -> Math.multiplyExact(number, 1024L * 1024);
            case "GB" -> Math.multiplyExact(number, 1024L * 1024 * 1024);
            default -> number;
        };
    }

    private static Duration duration(String raw) {
        if (raw.startsWith("P") || raw.startsWith("p")) {
            return Duration.parse(raw);
        }
        Matcher m = Pattern.compile("(\\d+)\\s*(ns|us|ms|s|m|h|d)?").matcher(raw);
        if (!m.matches()) {
            throw new ConfigurationException("Expected a duration such as 30s, 500ms, 5m or PT30S: '" + raw + "'");
        }
        long amount = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "ms" : m.group(2);
        return switch (unit) {
            case "ns" -> Duration.ofNanos(amount);
            case "us" -> Duration.ofNanos(amount * 1000);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            case "d" -> Duration.ofDays(amount);
            default -> Duration.ofMillis(amount);
        };
    }
}
