package dev.weft.httpserver.testing;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits for something another thread makes true (a counter a connection thread updates, a state a server
 * reaches, a latch a handler counts down). The time limit only guards against a hang: a passing test is done
 * long before it, so it is generous and no test may depend on it. Shared with the other modules' tests through
 * the engine's test-jar; it needs nothing but the JDK.
 */
public final class Await {

    /** How long the methods without a limit wait before they fail. */
    public static final Duration DEFAULT_LIMIT = Duration.ofSeconds(20);

    private static final long POLL_MILLIS = 5;

    private Await() {
    }

    /** Waits until {@code condition} holds; fails the test with {@code what} if it does not within the limit. */
    public static void until(String what, BooleanSupplier condition) {
        until(what, condition, DEFAULT_LIMIT);
    }

    /** Waits until {@code condition} holds; fails the test with {@code what} if it does not within {@code limit}. */
    public static void until(String what, BooleanSupplier condition, Duration limit) {
        value(what, () -> condition.getAsBoolean() ? Boolean.TRUE : null, v -> true, limit, false);
    }

    /**
     * Polls {@code source} until its value satisfies {@code accept} and returns that value; fails the test with
     * {@code what} and the last value if none does within the limit.
     */
    public static <T> T value(String what, Supplier<T> source, Predicate<? super T> accept) {
        return value(what, source, accept, DEFAULT_LIMIT, true);
    }

    /** Waits until {@code latch} reaches zero; fails the test with {@code what} if it does not within the limit. */
    public static void latch(String what, CountDownLatch latch) {
        try {
            if (!latch.await(DEFAULT_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("timed out after " + DEFAULT_LIMIT + " waiting for " + what
                        + " (" + latch.getCount() + " count(s) left)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + what, e);
        }
    }

    private static <T> T value(String what, Supplier<T> source, Predicate<? super T> accept, Duration limit,
                               boolean showLast) {
        long deadline = System.nanoTime() + limit.toNanos();
        T last = source.get();
        while (last == null || !accept.test(last)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + limit + " waiting for " + what
                        + (showLast ? " (last: " + last + ")" : ""));
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
            last = source.get();
        }
        return last;
    }
}
