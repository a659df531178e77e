package dev.weft.spring.boot.autoconfigure;

import dev.weft.httpserver.config.Setting;
import dev.weft.httpserver.config.Settings;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * Turns nested {@code weft.server.*} groups into engine configuration records: sizes to the engine's
 * {@code int}s, and the engine's validation messages (which start with the record's field name) into binding
 * errors naming the property.
 */
final class EngineSettings {

    private EngineSettings() {
    }

    /**
     * {@code size} in bytes as an {@code int}.
     *
     * @throws IllegalArgumentException starting with {@code name} if it is missing or too large
     */
    static int bytes(String name, DataSize size) {
        if (size == null) {
            throw new IllegalArgumentException(name + " must be set");
        }
        long bytes = size.toBytes();
        if (bytes > Integer.MAX_VALUE || bytes < Integer.MIN_VALUE) {
            throw new IllegalArgumentException(name + " must be at most " + Integer.MAX_VALUE + " bytes, was "
                    + bytes);
        }
        return (int) bytes;
    }

    /**
     * The Spring Boot property of an engine setting under {@code weft.server}: its property path in kebab case,
     * e.g. {@code http2.max-concurrent-streams} for {@code weft.server.http2.max-concurrent-streams}.
     */
    static String propertyPath(Setting<?> setting) {
        return setting.propertyPath().replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /**
     * Builds the engine record with {@code build}; if the engine refuses a value, rejects the property its
     * message names (the message starts with the field name of a setting in {@code group}).
     *
     * @param prefix the group's prefix for messages and error codes, e.g. {@code weft.server.http2}
     */
    static void validate(Errors errors, String prefix, Setting.Group group, Supplier<?> build) {
        try {
            build.get();
        } catch (IllegalArgumentException | NullPointerException ex) {
            String message = ex.getMessage() != null ? ex.getMessage() : ex.toString();
            String field = property(group, message.split(" ", 2)[0]);
            if (field != null) {
                errors.rejectValue(field, prefix + ".invalid", message);
            } else {
                errors.reject(prefix + ".invalid", "Invalid " + prefix + " settings: " + message);
            }
        }
    }

    private static String property(Setting.Group group, String field) {
        for (Setting<?> setting : Settings.all()) {
            if (setting.group() == group && setting.field().equals(field)) {
                return propertyPath(setting);
            }
        }
        return null;
    }
}
