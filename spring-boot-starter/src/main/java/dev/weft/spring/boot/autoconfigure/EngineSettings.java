package dev.weft.spring.boot.autoconfigure;

import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;

import java.util.Map;
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
     * Builds the engine record with {@code build}; if the engine refuses a value, rejects the property its
     * message names ({@code fields}: engine field name to property path relative to {@code weft.server}).
     *
     * @param group the group's prefix for messages and error codes, e.g. {@code weft.server.http2}
     */
    static void validate(Errors errors, String group, Map<String, String> fields, Supplier<?> build) {
        try {
            build.get();
        } catch (IllegalArgumentException | NullPointerException ex) {
            String message = ex.getMessage() != null ? ex.getMessage() : ex.toString();
            String field = fields.get(message.split(" ", 2)[0]);
            if (field != null) {
                errors.rejectValue(field, group + ".invalid", message);
            } else {
                errors.reject(group + ".invalid", "Invalid " + group + " settings: " + message);
            }
        }
    }
}
