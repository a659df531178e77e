package dev.weft.httpserver.config;

import java.time.Duration;
import java.util.function.Predicate;

/**
 * The values a {@link Setting} accepts, checked when a configuration is built, with a short description for
 * messages and documentation ("at least 1", "1 ms to 24 days").
 *
 * @param <T> the setting's value type
 */
public final class Bounds<T> {

    private static final Bounds<Object> ANY = new Bounds<>("any value", v -> true);
    private static final long MAX_TIMEOUT_MILLIS = Integer.MAX_VALUE;

    private final String description;
    private final Predicate<? super T> test;
    private final Long lowest;

    private Bounds(String description, Predicate<? super T> test) {
        this(description, test, null);
    }

    private Bounds(String description, Predicate<? super T> test, Long lowest) {
        this.description = description;
        this.test = test;
        this.lowest = lowest;
    }

    /** Every value. */
    @SuppressWarnings("unchecked") // accepts every value of every type
    public static <T> Bounds<T> any() {
        return (Bounds<T>) ANY;
    }

    /** Whole numbers from {@code min} up. */
    public static Bounds<Number> atLeast(long min) {
        return new Bounds<>("at least " + min, n -> n.longValue() >= min, min);
    }

    /** Whole numbers from {@code min} to {@code max}, both included. */
    public static Bounds<Number> between(long min, long max) {
        return new Bounds<>(min + " to " + max, n -> n.longValue() >= min && n.longValue() <= max, min);
    }

    /** A fraction above 0 and at most 1. */
    public static Bounds<Number> fraction() {
        return new Bounds<>("above 0 and at most 1", n -> n.doubleValue() > 0 && n.doubleValue() <= 1);
    }

    /** A duration that fits a socket timeout: 1 ms up to {@code Integer.MAX_VALUE} ms (about 24 days). */
    public static Bounds<Duration> timeout() {
        return new Bounds<>("1 ms to " + MAX_TIMEOUT_MILLIS + " ms",
                d -> d.toMillis() >= 1 && d.toMillis() <= MAX_TIMEOUT_MILLIS);
    }

    /** A duration longer than zero. */
    public static Bounds<Duration> positiveDuration() {
        return new Bounds<>("longer than zero", d -> !d.isNegative() && !d.isZero());
    }

    /** A duration of zero (off) or longer. */
    public static Bounds<Duration> notNegativeDuration() {
        return new Bounds<>("zero or longer", d -> !d.isNegative());
    }

    /** A comma-separated list of IP literals, CIDR blocks and the word {@code internal}. */
    public static Bounds<String> addressList() {
        return new Bounds<>("IP addresses, CIDR blocks or internal, comma-separated",
                dev.weft.httpserver.net.AddressSet::isValid);
    }

    /** Whether {@code value} is within these bounds; {@code null} never is. */
    public boolean contains(T value) {
        return value != null && test.test(value);
    }

    /** The lowest whole number within bounds, or {@code null} when these are not whole-number bounds. */
    Long lowest() {
        return lowest;
    }

    /** The bounds in words, e.g. {@code at least 1}. */
    @Override
    public String toString() {
        return description;
    }
}
