package dev.weft.httpserver.config;

import java.time.Duration;
import java.util.Objects;

/** The validation the configuration records share: each check throws {@link IllegalArgumentException}. */
public final class SettingChecks {

    private SettingChecks() {
    }

    /** {@code value} must be greater than zero. */
    public static void positive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }

    /** {@code value} must not be below zero. */
    public static void notNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative, was " + value);
        }
    }

    /** {@code value} must be present and longer than zero. */
    public static void positive(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }

    /** {@code value} must be present and not below zero. */
    public static void notNegative(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative, was " + value);
        }
    }

    /** {@code value} must be present and fit a socket timeout: 1 ms up to {@code Integer.MAX_VALUE} ms. */
    public static void timeout(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.toMillis() < 1) {
            throw new IllegalArgumentException(name + " must be at least 1 ms, was " + value);
        }
        if (value.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(name + " is too long: " + value);
        }
    }
}
